package io.vrmq.compat.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.OfficialClients;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote config updates behind CVE-2023-33246 (UPDATE_BROKER_CONFIG setting rocketmqHome and filterServerNums, so
 * that the broker ran a shell command) and CVE-2023-37582 (UPDATE_NAMESRV_CONFIG setting configStorePath, so that
 * the NameServer wrote a file where the caller chose), and the filter-class upload, sent with the official 5.5.0
 * admin to our servers with ACL off: each is refused, the settings stay, and no file appears.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConfigUpdateRefusalIT {
    /** REGISTER_MESSAGE_FILTER_CLASS: a client uploaded a filter class for the broker to load (gone in 5.x). */
    private static final int REGISTER_MESSAGE_FILTER_CLASS = 302;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void startNameServerAndBroker() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-hardening");
        admin = OfficialClients.admin(bed.namesrvAddr());
        resources.closeClientLater(admin::shutdown);
    }

    @Test
    void aBrokerConfigUpdateThatWouldRunACommandIsRefusedAndChangesNothing() throws Exception {
        Path marker = dir.resolve("cve-2023-33246-ran");
        Properties attack = new Properties();
        attack.setProperty("rocketmqHome", "-c $@|sh . echo touch " + marker + ";");
        attack.setProperty("filterServerNums", "1");
        attack.setProperty("storePathRootDir", dir.resolve("elsewhere").toString());

        MQBrokerException refused = assertThrows(MQBrokerException.class,
            () -> admin.updateBrokerConfig(bed.broker().address(), attack));

        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, refused.getResponseCode(), refused.toString());
        Properties after = admin.getBrokerConfig(bed.broker().address());
        assertFalse(after.containsKey("rocketmqHome") || after.containsKey("filterServerNums"), after.toString());
        assertEquals(bed.broker().settings().storePathRootDir().toAbsolutePath().toString(),
            after.getProperty("storePathRootDir"));
        assertFalse(Files.exists(marker));
    }

    @Test
    void aNameServerConfigUpdateThatWouldWriteAFileIsRefusedAndChangesNothing() throws Exception {
        Path target = dir.resolve("cve-2023-37582-written");
        Properties attack = new Properties();
        attack.setProperty("configStorePath", target.toString());
        attack.setProperty("kvConfigPath", target.toString());

        MQClientException refused = assertThrows(MQClientException.class,
            () -> admin.updateNameServerConfig(attack, List.of(bed.namesrvAddr())));

        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode(), refused.toString());
        Properties after = admin.getNameServerConfig(List.of(bed.namesrvAddr())).get(bed.namesrvAddr());
        assertFalse(target.toString().equals(after.getProperty("kvConfigPath")), after.toString());
        assertFalse(Files.exists(target));
    }

    @Test
    void aFilterClassUploadIsNotSupported() throws Exception {
        NettyRemotingClient remoting = OfficialClients.remotingClient();
        try {
            RemotingCommand upload = RemotingCommand.createRequestCommand(REGISTER_MESSAGE_FILTER_CLASS, null);
            upload.addExtField("consumerGroup", "g");
            upload.addExtField("topic", "t");
            upload.addExtField("className", "Evil");
            upload.addExtField("classCRC", "0");
            upload.setBody("public class Evil {}".getBytes(StandardCharsets.UTF_8));
            assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                remoting.invokeSync(bed.broker().address(), upload, 5_000).getCode());
            RemotingCommand register = RemotingCommand.createRequestCommand(RequestCode.REGISTER_FILTER_SERVER, null);
            register.addExtField("filterServerAddr", "127.0.0.1:1");
            assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                remoting.invokeSync(bed.broker().address(), register, 5_000).getCode());
        } finally {
            remoting.shutdown();
        }
    }
}
