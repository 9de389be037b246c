package io.vrmq.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.ApacheBroker;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.HandRegisteredBroker;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * When our NameServer drops a broker: after a configured time of silence, on an UNREGISTER_BROKER, on the close of
 * its connection, and on the clean shutdown of a real Apache broker. The shared NameServer keeps RocketMQ's 120 s
 * expiry, so anything that disappears from it within {@link #DROP_TIMEOUT} was dropped for another reason than
 * silence; the silence test starts its own NameServer with short timings.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerExpiryIT {

    private static final String CLUSTER = "CompatExpiryCluster";
    /** Well below the 120 s expiry and the 10 s scan of the shared NameServer. */
    private static final Duration DROP_TIMEOUT = Duration.ofSeconds(8);
    private static final long SHORT_SCAN_INTERVAL_MS = 500;
    private static final long SHORT_EXPIRED_TIME_MS = 3_000;
    private static final Duration SHORT_EXPIRY_TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static RunningNameServer nameServer;
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void startNameServerWithDefaultExpiry() throws Exception {
        nameServer = resources.nameServer(dir.resolve("namesrv"), NameServerSettings.defaults(dir.resolve("namesrv")));
        admin = OfficialClients.admin(nameServer.address());
        resources.closeClientLater(admin::shutdown);
    }

    @Test
    void aBrokerThatFallsSilentWithItsConnectionOpenExpiresFromClusterInfoAndRoutes() throws Exception {
        Assumptions.assumeTrue(NameServerKind.selected() == NameServerKind.VRMQ,
            "Apache's NameServer has no brokerChannelExpiredTime setting (a constant 120 s)");
        Path shortExpiryDir = dir.resolve("namesrv-short-expiry");
        RunningNameServer shortExpiry = resources.nameServer(shortExpiryDir, NameServerSettings.defaults(shortExpiryDir)
            .withExpiry(SHORT_SCAN_INTERVAL_MS, SHORT_EXPIRED_TIME_MS));
        DefaultMQAdminExt shortExpiryAdmin = OfficialClients.admin(shortExpiry.address());
        resources.closeClientLater(shortExpiryAdmin::shutdown);
        HandRegisteredBroker silent = resources.closeClientLater(HandRegisteredBroker.register(shortExpiry.address(),
            CLUSTER, "broker-silent", List.of("CompatTopicOfSilentBroker")));
        assertTrue(isListed(shortExpiryAdmin, silent.brokerName()), "listed right after registering");

        Await.until(silent.brokerName() + " gone from cluster info", SHORT_EXPIRY_TIMEOUT,
            () -> !isListed(shortExpiryAdmin, silent.brokerName()));
        assertTopicNotExist(shortExpiryAdmin, "CompatTopicOfSilentBroker");
    }

    @Test
    void anUnregisterRequestDropsTheBrokerWhileItsConnectionStaysOpen() throws Exception {
        HandRegisteredBroker registered = resources.closeClientLater(HandRegisteredBroker.register(nameServer.address(),
            CLUSTER, "broker-unregistering", List.of("CompatTopicOfUnregisteringBroker")));
        assertTrue(isListed(admin, registered.brokerName()), "listed right after registering");

        registered.unregister();

        Await.until(registered.brokerName() + " gone from cluster info", DROP_TIMEOUT,
            () -> !isListed(admin, registered.brokerName()));
        assertTopicNotExist(admin, "CompatTopicOfUnregisteringBroker");
    }

    @Test
    void aBrokerWhoseConnectionClosesIsDroppedAtOnce() throws Exception {
        HandRegisteredBroker registered = HandRegisteredBroker.register(nameServer.address(), CLUSTER,
            "broker-disconnecting", List.of("CompatTopicOfDisconnectingBroker"));
        assertTrue(isListed(admin, registered.brokerName()), "listed right after registering");

        registered.close();

        Await.until(registered.brokerName() + " gone from cluster info", DROP_TIMEOUT,
            () -> !isListed(admin, registered.brokerName()));
        assertTopicNotExist(admin, "CompatTopicOfDisconnectingBroker");
    }

    @Test
    void aRealBrokerThatShutsDownCleanlyIsUnregisteredAtOnce() throws Exception {
        ApacheBroker broker = resources.broker(dir.resolve("broker"), CLUSTER, "broker-shutting-down",
            List.of(nameServer));
        assertTrue(isListed(admin, broker.brokerName()), "listed once registered");

        broker.process().terminate();    // the 5.5.0 broker unregisters first, then takes ~8 s to close down

        Await.until(broker.brokerName() + " gone from cluster info", DROP_TIMEOUT,
            () -> !isListed(admin, broker.brokerName()));
    }

    private static boolean isListed(DefaultMQAdminExt admin, String brokerName) throws Exception {
        ClusterInfo clusterInfo = admin.examineBrokerClusterInfo();
        return clusterInfo.getBrokerAddrTable() != null && clusterInfo.getBrokerAddrTable().containsKey(brokerName);
    }

    private static void assertTopicNotExist(DefaultMQAdminExt admin, String topic) {
        MQClientException failure = assertThrows(MQClientException.class, () -> admin.examineTopicRouteInfo(topic),
            "route of " + topic);
        assertEquals(ResponseCode.TOPIC_NOT_EXIST, failure.getResponseCode(), failure.toString());
    }
}
