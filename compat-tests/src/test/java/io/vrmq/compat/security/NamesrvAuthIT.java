package io.vrmq.compat.security;

import static io.vrmq.compat.security.AclClients.hook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.namesrv.DeleteTopicFromNamesrvRequestHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Beyond Apache: our NameServer with authenticationEnabled. A broker signing with its
 * innerClientAuthenticationCredentials registers; the official admin signing as initAuthenticationUser writes KV
 * config; unsigned or wrongly signed writes (KV config, topic deletion, broker registration) get 16 and change
 * nothing; unsigned reads (routes, cluster info) are served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NamesrvAuthIT {
    private static final String ADMIN_USER = "ns-admin";
    private static final String ADMIN_SECRET = "ns-admin-secret";
    private static final String INNER = "{\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}";

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static VrmqBroker broker;

    @BeforeAll
    static void startAnAuthenticatingNameServerAndASigningBroker() {
        Path namesrvDir = dir.resolve("namesrv");
        nameServer = resources.nameServer(namesrvDir, NameServerSettings.defaults(namesrvDir).withExtraConfig(Map.of(
            "authenticationEnabled", true,
            "initAuthenticationUser", "{\"username\":\"" + ADMIN_USER + "\",\"password\":\"" + ADMIN_SECRET + "\"}",
            "innerClientAuthenticationCredentials", INNER)));
        broker = brokers.start(BrokerSettings.defaults("broker-ns-auth", nameServer.address(), dir.resolve("broker")),
            Map.of("innerClientAuthenticationCredentials", INNER));
    }

    /** An admin signing with {@code signer}, or unsigned when it is null. */
    private static DefaultMQAdminExt admin(RPCHook signer) throws MQClientException {
        DefaultMQAdminExt admin = signer != null ? new DefaultMQAdminExt(signer, 5_000) : new DefaultMQAdminExt(5_000);
        admin.setNamesrvAddr(nameServer.address());
        admin.setInstanceName(OfficialClients.uniqueInstanceName("ns-auth-admin"));
        admin.start();
        resources.closeClientLater(admin::shutdown);
        return admin;
    }

    @Test
    void aSigningBrokerRegistersAndUnsignedReadsAreServed() throws Exception {
        DefaultMQAdminExt unsigned = admin(null);
        Await.until("the broker in the cluster info", Duration.ofSeconds(30),
            () -> unsigned.examineBrokerClusterInfo().getBrokerAddrTable().containsKey(broker.brokerName()));
        assertEquals(broker.brokerName(), unsigned.examineTopicRouteInfo("TBW102").getBrokerDatas().get(0)
            .getBrokerName());
    }

    @Test
    void onlyASignedAdminWritesKvConfig() throws Exception {
        MQClientException refused = assertThrows(MQClientException.class,
            () -> admin(null).createAndUpdateKvConfig("ns", "key", "unsigned"));
        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode(), refused.toString());
        MQClientException wrongSecret = assertThrows(MQClientException.class,
            () -> admin(hook(ADMIN_USER, "not-the-secret")).createAndUpdateKvConfig("ns", "key", "wrong"));
        assertEquals(ResponseCode.NO_PERMISSION, wrongSecret.getResponseCode(), wrongSecret.toString());

        DefaultMQAdminExt signed = admin(hook(ADMIN_USER, ADMIN_SECRET));
        signed.createAndUpdateKvConfig("ns", "key", "signed");

        assertEquals("signed", admin(null).getKVConfig("ns", "key"));
    }

    @Test
    void unsignedTopicDeletionAndBrokerRegistrationAreRefused() throws Exception {
        NettyRemotingClient remoting = OfficialClients.remotingClient();
        try {
            DeleteTopicFromNamesrvRequestHeader header = new DeleteTopicFromNamesrvRequestHeader();
            header.setTopic("TBW102");
            RemotingCommand delete = RemotingCommand.createRequestCommand(RequestCode.DELETE_TOPIC_IN_NAMESRV,
                header);
            RemotingCommand answer = remoting.invokeSync(nameServer.address(), delete, 5_000);
            assertEquals(ResponseCode.NO_PERMISSION, answer.getCode());
            assertEquals("username cannot be null.", answer.getRemark());
            RemotingCommand register = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, null);
            register.addExtField("brokerName", "forged");
            assertEquals(ResponseCode.NO_PERMISSION,
                remoting.invokeSync(nameServer.address(), register, 5_000).getCode());
        } finally {
            remoting.shutdown();
        }
        DefaultMQAdminExt unsigned = admin(null);
        assertEquals(broker.brokerName(), unsigned.examineTopicRouteInfo("TBW102").getBrokerDatas().get(0)
            .getBrokerName());
    }
}
