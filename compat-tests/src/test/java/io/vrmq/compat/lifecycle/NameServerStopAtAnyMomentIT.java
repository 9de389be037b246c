package io.vrmq.compat.lifecycle;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.FreePorts;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.NameServerSettings;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our NameServer stopped at every phase: SIGTERM idle after its start, at once, while it reads its config, under
 * load (the official admin writing KV config entries, a broker heartbeating every second) and right after its boot
 * line. Each time the exit is prompt with code 0 and no blocked thread, and a later start on the same port serves the
 * official clients: every acknowledged KV write is there, and the broker's routes come back so that the official
 * pull consumer reads every message the producer had got SEND_OK for.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NameServerStopAtAnyMomentIT {
    private static final int MESSAGES = 200;
    private static final int BATCH = 20;
    private static final String KV_NAMESPACE = "lifecycle";
    private static final String KV_KEY = "counter";
    private static final long KV_WRITES_BEFORE_SIGNAL = 20;
    private static final long REGISTER_PERIOD_MS = 1_000;
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SERVE_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    final CompatResources resources = new CompatResources();
    @RegisterExtension
    final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private ChildJvm nameServer;

    @AfterEach
    void stopNameServer() {
        if (nameServer != null) {
            nameServer.close();
        }
    }

    @Test
    void sigtermAtEveryPhaseKeepsEveryAcknowledgedKvWriteAndTheRoutesComeBack() throws Exception {
        Path nameServerDir = dir.resolve("namesrv");
        NameServerSettings settings = NameServerSettings.defaults(nameServerDir);
        int port = FreePorts.any();
        String address = "127.0.0.1:" + port;
        nameServer = NameServerKind.launchVrmq(nameServerDir, settings, port);
        nameServer.awaitLogLine(NameServerKind.BOOT_LINE, BOOT_TIMEOUT);
        brokers.start(new BrokerSettings(BrokerSettings.CLUSTER, "broker-ns-lifecycle", address, dir.resolve("broker"),
            "SYNC_FLUSH", BrokerSettings.DEFAULT_DELAY_LEVELS, REGISTER_PERIOD_MS));
        BrokerClients clients = new BrokerClients(resources, address);
        DefaultMQProducer producer = clients.producer(uniqueName("ns_lifecycle_producer"));
        AcknowledgedMessages acknowledged = new AcknowledgedMessages(Topics.create(producer,
            uniqueName("NameServerLifecycle")), 100);
        acknowledged.sendBatches(producer, MESSAGES, BATCH);
        TopicReader reader = new TopicReader(clients.pullConsumer(uniqueName("ns_lifecycle_reader")));
        DefaultMQAdminExt admin = clients.admin();
        CountingWrites kv = CountingWrites.start("kv", 1, value -> admin.createAndUpdateKvConfig(KV_NAMESPACE,
            KV_KEY, Long.toString(value)));
        kv.awaitAcknowledged(KV_WRITES_BEFORE_SIGNAL, SERVE_TIMEOUT);
        kv.stop();

        StopChecks.sigtermAt(nameServer, KillPoint.atLine("idle, after the start", NameServerKind.BOOT_LINE),
            StopChecks.DEFAULT_GRACE_MS);
        nameServer = NameServerKind.launchVrmq(nameServerDir, settings, port);
        StopChecks.sigtermAt(nameServer, KillPoint.AT_ONCE, StopChecks.DEFAULT_GRACE_MS);

        restartAndCheck(nameServerDir, settings, port, admin, kv, reader, acknowledged, "after SIGTERM at once");
        CountingWrites underLoad = CountingWrites.start("kv-load", kv.nextValue(), value -> admin
            .createAndUpdateKvConfig(KV_NAMESPACE, KV_KEY, Long.toString(value)));
        underLoad.awaitAcknowledged(kv.nextValue() + KV_WRITES_BEFORE_SIGNAL, SERVE_TIMEOUT);
        StopChecks.sigtermAt(nameServer, KillPoint.atLine("under load", NameServerKind.BOOT_LINE),
            StopChecks.DEFAULT_GRACE_MS);
        underLoad.stop();

        nameServer = NameServerKind.launchVrmq(nameServerDir, settings, port);
        StopChecks.sigtermAt(nameServer, KillPoint.atLine("reading its config", "namesrv: reading its config"),
            StopChecks.DEFAULT_GRACE_MS);
        restartAndCheck(nameServerDir, settings, port, admin, underLoad, reader, acknowledged,
            "after SIGTERM under load and while reading the config");
        StopChecks.sigtermAt(nameServer, KillPoint.atLine("idle", NameServerKind.BOOT_LINE),
            StopChecks.DEFAULT_GRACE_MS);

        nameServer = NameServerKind.launchVrmq(nameServerDir, settings, port);
        StopChecks.sigtermAt(nameServer, KillPoint.atLine("right after the boot line", NameServerKind.BOOT_LINE),
            StopChecks.DEFAULT_GRACE_MS);
        restartAndCheck(nameServerDir, settings, port, admin, underLoad, reader, acknowledged,
            "after SIGTERM right after the boot line");
        StopChecks.sigtermAt(nameServer, KillPoint.atLine("idle", NameServerKind.BOOT_LINE),
            StopChecks.DEFAULT_GRACE_MS);
    }

    /** Starts the NameServer again and checks that it serves the last acknowledged KV write and every message. */
    private void restartAndCheck(Path nameServerDir, NameServerSettings settings, int port, DefaultMQAdminExt admin,
                                 CountingWrites kv, TopicReader reader, AcknowledgedMessages acknowledged,
                                 String when) throws Exception {
        nameServer = NameServerKind.launchVrmq(nameServerDir, settings, port);
        nameServer.awaitLogLine(NameServerKind.BOOT_LINE, BOOT_TIMEOUT);
        long expected = kv.lastAcknowledged();
        Await.until("KV " + KV_KEY + " at " + expected + " or later " + when, SERVE_TIMEOUT,
            () -> Long.parseLong(admin.getKVConfig(KV_NAMESPACE, KV_KEY)) >= expected);
        acknowledged.assertAllServed(reader, SERVE_TIMEOUT, when);
    }
}
