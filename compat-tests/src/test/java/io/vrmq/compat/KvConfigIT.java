package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV config commands as the official admin sends them: PUT_KV_CONFIG (100), GET_KV_CONFIG (101),
 * DELETE_KV_CONFIG (102) and GET_KVLIST_BY_NAMESPACE (219), kept in kvConfigPath across a restart.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KvConfigIT {

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aKvConfigPutThroughTheAdminCanBeReadListedAndDeleted() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir, NameServerSettings.defaults(dir));
        DefaultMQAdminExt admin = startAdmin(nameServer);

        admin.createAndUpdateKvConfig("compat-ns", "color", "blue");
        admin.createAndUpdateKvConfig("compat-ns", "shape", "round");
        assertEquals("blue", admin.getKVConfig("compat-ns", "color"));
        assertEquals(Map.of("color", "blue", "shape", "round"), admin.getKVListByNamespace("compat-ns").getTable());

        admin.deleteKvConfig("compat-ns", "color");
        MQClientException missing = assertThrows(MQClientException.class,
            () -> admin.getKVConfig("compat-ns", "color"));
        assertEquals(ResponseCode.QUERY_NOT_FOUND, missing.getResponseCode(), missing.toString());
        assertEquals(Map.of("shape", "round"), admin.getKVListByNamespace("compat-ns").getTable());
    }

    @Test
    void aKvConfigSurvivesARestartOnTheSameKvConfigPath() throws Exception {
        NameServerSettings settings = NameServerSettings.defaults(dir).withKvConfigPath(dir.resolve("kv/kv.json"));
        RunningNameServer first = resources.nameServer(dir.resolve("first"), settings);
        startAdmin(first).createAndUpdateKvConfig("compat-restart", "answer", "42");

        first.stop();
        RunningNameServer second = resources.track(NameServerKind.selected().start(dir.resolve("second"), settings));

        assertEquals("42", startAdmin(second).getKVConfig("compat-restart", "answer"));
    }

    private static DefaultMQAdminExt startAdmin(RunningNameServer nameServer) throws MQClientException {
        DefaultMQAdminExt admin = OfficialClients.admin(nameServer.address());
        resources.closeClientLater(admin::shutdown);
        return admin;
    }
}
