package io.vrmq.compat.security;

import static io.vrmq.compat.security.AclClients.hook;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.ReplicaConfig;
import io.vrmq.compat.broker.support.ReplicaPair;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.remoting.protocol.body.AclInfo;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slave copies its master's users and ACLs like its topics: both brokers authenticate, the slave signs its
 * metadata requests with innerClientAuthenticationCredentials, and a user created, changed and deleted on the
 * master shows the same on the slave within a few sync rounds.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AclReplicationIT {
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(20);
    private static final Map<String, Object> ACL_ON = Map.of("authenticationEnabled", true,
        "authorizationEnabled", true,
        "initAuthenticationUser", "{\"username\":\"" + AclIT.SUPER_USER + "\",\"password\":\"" + AclIT.SUPER_SECRET
            + "\"}",
        "innerClientAuthenticationCredentials", "{\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}");

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static ReplicaConfig withAcl(ReplicaConfig config) {
        for (Map.Entry<String, Object> entry : ACL_ON.entrySet()) {
            config = config.with(entry.getKey(), entry.getValue());
        }
        return config.withFastMetadataSync();
    }

    @Test
    void aSlaveFollowsItsMastersUsersAndAcls() throws Exception {
        Path namesrvDir = dir.resolve("namesrv");
        RunningNameServer nameServer = resources.nameServer(namesrvDir, NameServerSettings.defaults(namesrvDir));
        ReplicaPair pair = ReplicaPair.start(brokers, dir, "broker-acl-ha", nameServer.address(),
            withAcl(ReplicaConfig.master(ReplicaConfig.ASYNC_MASTER)), withAcl(ReplicaConfig.slave(
                ReplicaConfig.FIRST_SLAVE_ID)));
        DefaultMQAdminExt admin = new AclClients(resources, nameServer.address())
            .admin(hook(AclIT.SUPER_USER, AclIT.SUPER_SECRET));
        String master = pair.master().address();
        String slave = pair.slave().address();

        admin.createUser(master, "kate", "kate-secret", "Normal");
        admin.createAcl(master, "User:kate", List.of("Topic:tk"), List.of("Pub"), null, "Allow");
        Await.until("kate and her ACL on the slave", SYNC_TIMEOUT, () -> admin.getUser(slave, "kate") != null
            && admin.getAcl(slave, "User:kate") != null);
        assertEquals("kate-secret", admin.getUser(slave, "kate").getPassword());

        admin.updateAcl(master, "User:kate", List.of("Topic:tk"), List.of("Pub"), null, "Deny");
        Await.until("kate's ACL updated on the slave", SYNC_TIMEOUT, () -> {
            AclInfo acl = admin.getAcl(slave, "User:kate");
            return acl != null && "Deny".equals(acl.getPolicies().get(0).getEntries().get(0).getDecision());
        });

        admin.deleteUser(master, "kate");
        Await.until("kate gone from the slave", SYNC_TIMEOUT, () -> admin.getUser(slave, "kate") == null);
    }
}
