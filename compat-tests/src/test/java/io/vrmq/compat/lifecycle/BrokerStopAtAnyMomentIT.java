package io.vrmq.compat.lifecycle;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our broker (SYNC_FLUSH, 128 KiB commit-log segments, thousands of messages: dozens of segments) stopped at every
 * phase of its start and after it: SIGTERM at once, while it reads its config, in the middle of a full store recovery,
 * right after its boot line, idle and under the official producer's load; then SIGKILL at random points (seed logged).
 * Each time the exit is prompt, the code is 0 after SIGTERM, no thread is reported blocked, and a later start serves
 * the official pull consumer every message the producer got SEND_OK for. One NameServer and one broker store for the
 * class; the tests run in order on that store.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BrokerStopAtAnyMomentIT {
    private static final int SEGMENT_BYTES = 128 * 1024;
    private static final int MESSAGES = 8_000;
    private static final int BODY_BYTES = 600;
    /** One batch must fit a segment: 32 x 600 bytes is about 20 KiB. */
    private static final int BATCH = 32;
    private static final int LOAD_ACKNOWLEDGED_BEFORE_SIGNAL = 50;
    private static final int RANDOM_KILLS = 3;
    /** SIGKILL lands this long after the launch plus up to 1.5 boot times: the JVM's own start is not the point. */
    private static final long FIRST_KILL_MS = 200;
    private static final double KILL_SPREAD_OF_BOOT = 1.5;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static VrmqBroker broker;
    private static DefaultMQProducer producer;
    private static TopicReader reader;
    private static AcknowledgedMessages acknowledged;
    private static long bootMs;

    @BeforeAll
    static void startWithAStoreOfManySegments() throws Exception {
        RunningNameServer nameServer = resources.nameServer(dir.resolve("namesrv"),
            NameServerSettings.defaults(dir.resolve("namesrv")));
        BrokerClients clients = new BrokerClients(resources, nameServer.address());
        broker = brokers.start(BrokerSettings.defaults("broker-lifecycle", nameServer.address(),
            dir.resolve("broker")).withFlushDiskType("SYNC_FLUSH"), Map.of("mappedFileSizeCommitLog", SEGMENT_BYTES,
            "maxMessageSize", SEGMENT_BYTES / 2));
        producer = clients.producer(uniqueName("lifecycle_producer"));
        producer.setRetryTimesWhenSendFailed(0);
        String topic = Topics.create(producer, uniqueName("Lifecycle"));
        acknowledged = new AcknowledgedMessages(topic, BODY_BYTES);
        acknowledged.sendBatches(producer, MESSAGES, BATCH);
        reader = new TopicReader(clients.pullConsumer(uniqueName("lifecycle_reader")));
    }

    @Test
    @Order(1)
    void sigtermWhenIdleAfterTheStartThenAtOnceThenUnderLoad() throws Exception {
        StopChecks.sigtermAt(broker.process(), KillPoint.atLine("idle, after the start", VrmqBroker.BOOT_LINE_END),
            StopChecks.DEFAULT_GRACE_MS);

        StopChecks.sigtermAt(broker.launch(), KillPoint.AT_ONCE, StopChecks.DEFAULT_GRACE_MS);
        StopChecks.sigtermAt(broker.launch(), KillPoint.JUST_AFTER_THE_LAUNCH, StopChecks.DEFAULT_GRACE_MS);

        long launchedNanos = System.nanoTime();
        ChildJvm serving = broker.launch();
        broker.awaitBoot();
        bootMs = (System.nanoTime() - launchedNanos) / 1_000_000;
        StopChecks.assertNoDamage(serving);
        acknowledged.assertAllServed(reader, READ_TIMEOUT, "after SIGTERM at once and 300 ms after the launch");
        AcknowledgedMessages.Load load = acknowledged.sendContinuously(producer);
        Await.until(LOAD_ACKNOWLEDGED_BEFORE_SIGNAL + " sends acknowledged under load", LOAD_TIMEOUT,
            () -> load.acknowledged() >= LOAD_ACKNOWLEDGED_BEFORE_SIGNAL);
        StopChecks.sigtermAt(serving, KillPoint.atLine("under load", VrmqBroker.BOOT_LINE_END),
            StopChecks.DEFAULT_GRACE_MS);
        load.stop();
    }

    @Test
    @Order(2)
    void sigtermWhileReadingTheConfigThenInTheMiddleOfAFullRecoveryThenRightAfterTheBootLine() throws Exception {
        StopChecks.sigtermAt(broker.launch(), KillPoint.atLine("reading its config", "broker: reading its config"),
            StopChecks.DEFAULT_GRACE_MS);

        ChildJvm serving = broker.launch();
        broker.awaitBoot();
        StopChecks.assertNoDamage(serving);
        acknowledged.assertAllServed(reader, READ_TIMEOUT, "after SIGTERM under load and while reading the config");
        StopChecks.sigtermAt(serving, KillPoint.atLine("idle", VrmqBroker.BOOT_LINE_END), StopChecks.DEFAULT_GRACE_MS);

        // Without its checkpoint the store is walked and re-dispatched from its oldest segment: a long recovery.
        Files.delete(broker.settings().storePathRootDir().resolve("checkpoint"));
        String log = StopChecks.sigtermAt(broker.launch(), KillPoint.atLine("in the store recovery",
            "recovering store"), StopChecks.DEFAULT_GRACE_MS);
        System.out.println("the SIGTERM during the recovery " + (log.contains("store open cancelled")
            ? "cancelled it: " + log.lines().filter(line -> line.contains("store open cancelled")).findFirst()
                .orElseThrow()
            : "came after it had ended"));

        StopChecks.sigtermAt(broker.launch(), KillPoint.atLine("right after the boot line", VrmqBroker.BOOT_LINE_END),
            StopChecks.DEFAULT_GRACE_MS);

        serving = broker.launch();
        broker.awaitBoot();
        StopChecks.assertNoDamage(serving);
        acknowledged.assertAllServed(reader, READ_TIMEOUT, "after SIGTERM in the recovery and after the boot line");
    }

    @Test
    @Order(3)
    void sigkillAtRandomPointsUnderLoadLosesNoAcknowledgedSyncFlushMessage() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        System.out.println("SIGKILL points from seed " + seed + ", boot time " + bootMs + " ms");
        AcknowledgedMessages.Load load = acknowledged.sendContinuously(producer);
        try {
            for (int kill = 1; kill <= RANDOM_KILLS; kill++) {
                if (broker.process().isAlive()) {
                    StopChecks.sigkillAfter(broker.process(), random.nextInt(500), "kill " + kill + ", serving");
                }
                long delayMs = FIRST_KILL_MS
                    + random.nextLong((long) (KILL_SPREAD_OF_BOOT * Math.max(bootMs, 1_000)));
                StopChecks.sigkillAfter(broker.launch(), delayMs, "kill " + kill + ", starting");
                ChildJvm recovered = broker.launch();
                broker.awaitBoot();
                StopChecks.assertNoBlockedThread(recovered, recovered.logSinceStart());
                int before = load.acknowledged();
                Await.until("the load sends again after kill " + kill, LOAD_TIMEOUT,
                    () -> load.acknowledged() > before);
                acknowledged.assertAllServed(reader, READ_TIMEOUT, "after random SIGKILL " + kill + " (seed " + seed
                    + ")");
            }
        } finally {
            load.stop();
        }
        StopChecks.sigtermAt(broker.process(), KillPoint.atLine("idle", VrmqBroker.BOOT_LINE_END),
            StopChecks.DEFAULT_GRACE_MS);
        assertTrue(acknowledged.count() > MESSAGES, "the load added acknowledged messages");
    }
}
