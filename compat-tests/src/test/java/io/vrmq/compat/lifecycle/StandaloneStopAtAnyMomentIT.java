package io.vrmq.compat.lifecycle;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerClients;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.FreePorts;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone jar with all three roles in one JVM (NameServer, controller, broker, started in that order) stopped
 * while each role starts: SIGTERM 300 ms after the launch, while the controller's Raft starts (the NameServer already
 * runs), while the broker recovers its store, right after the broker's boot line and under the official producer's
 * load; then SIGKILL at random points (seed logged). Each time the exit is prompt, the code 0 after SIGTERM, no thread
 * is reported blocked, and the next start serves the official pull consumer every message the producer had got
 * SEND_OK for (SYNC_FLUSH).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StandaloneStopAtAnyMomentIT {
    private static final String JAR_PROPERTY = "vrmq.standalone.jar";
    private static final String BROKER_BOOT = "boot success. serializeType=JSON and name server is";
    private static final int MESSAGES = 2_000;
    private static final int BODY_BYTES = 400;
    private static final int BATCH = 20;
    private static final int SEGMENT_BYTES = 256 * 1024;
    private static final int LOAD_ACKNOWLEDGED_BEFORE_SIGNAL = 50;
    private static final int RANDOM_KILLS = 2;
    /** SIGKILL lands between these after the launch: from the NameServer's start to after the broker's. */
    private static final long FIRST_KILL_MS = 300;
    private static final long KILL_SPREAD_MS = 3_000;
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SERVE_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private ChildJvm standalone;

    @AfterEach
    void stopStandalone() {
        if (standalone != null) {
            standalone.close();
        }
    }

    @Test
    void stopsAtEveryRolesStartAndServesEveryAcknowledgedMessageAfterwards() throws Exception {
        int namesrvPort = FreePorts.any();
        String namesrvAddr = "127.0.0.1:" + namesrvPort;
        List<String> java = javaArguments(namesrvPort, namesrvAddr);
        standalone = launch(java);
        standalone.awaitLogLine(BROKER_BOOT, BOOT_TIMEOUT);
        BrokerClients clients = new BrokerClients(resources, namesrvAddr);
        DefaultMQProducer producer = clients.producer(uniqueName("standalone_lifecycle_producer"));
        producer.setRetryTimesWhenSendFailed(0);
        AcknowledgedMessages acknowledged = new AcknowledgedMessages(Topics.create(producer,
            uniqueName("StandaloneLifecycle")), BODY_BYTES);
        acknowledged.sendBatches(producer, MESSAGES, BATCH);
        TopicReader reader = new TopicReader(clients.pullConsumer(uniqueName("standalone_lifecycle_reader")));

        AcknowledgedMessages.Load load = acknowledged.sendContinuously(producer);
        Await.until(LOAD_ACKNOWLEDGED_BEFORE_SIGNAL + " sends acknowledged under load", SERVE_TIMEOUT,
            () -> load.acknowledged() >= LOAD_ACKNOWLEDGED_BEFORE_SIGNAL);
        StopChecks.sigtermAt(standalone, KillPoint.atLine("under load", BROKER_BOOT), StopChecks.CONTROLLER_GRACE_MS);
        load.stop();

        standalone = launch(java);
        StopChecks.sigtermAt(standalone, KillPoint.JUST_AFTER_THE_LAUNCH, StopChecks.CONTROLLER_GRACE_MS);
        standalone = launch(java);
        StopChecks.sigtermAt(standalone, KillPoint.atLine("while the controller's Raft starts", "starting Raft"),
            StopChecks.CONTROLLER_GRACE_MS);
        restartAndCheck(java, reader, acknowledged, "after SIGTERM under load, 300 ms after the launch and in the"
            + " controller's Raft start");
        StopChecks.sigtermAt(standalone, KillPoint.atLine("idle", BROKER_BOOT), StopChecks.CONTROLLER_GRACE_MS);

        standalone = launch(java);
        StopChecks.sigtermAt(standalone, KillPoint.atLine("while the broker recovers its store", "recovering store"),
            StopChecks.CONTROLLER_GRACE_MS);
        standalone = launch(java);
        StopChecks.sigtermAt(standalone, KillPoint.atLine("right after the broker's boot line", BROKER_BOOT),
            StopChecks.CONTROLLER_GRACE_MS);
        restartAndCheck(java, reader, acknowledged, "after SIGTERM in the store recovery and after the boot line");

        long seed = System.nanoTime();
        Random random = new Random(seed);
        System.out.println("SIGKILL points from seed " + seed);
        AcknowledgedMessages.Load killLoad = acknowledged.sendContinuously(producer);
        try {
            for (int kill = 1; kill <= RANDOM_KILLS; kill++) {
                StopChecks.sigkillAfter(standalone, random.nextInt(500), "kill " + kill + ", serving");
                StopChecks.sigkillAfter(launch(java), FIRST_KILL_MS + random.nextLong(KILL_SPREAD_MS),
                    "kill " + kill + ", starting");
                restartAndCheck(java, reader, acknowledged, "after random SIGKILL " + kill + " (seed " + seed + ")");
            }
        } finally {
            killLoad.stop();
        }
        StopChecks.sigtermAt(standalone, KillPoint.atLine("idle", BROKER_BOOT), StopChecks.CONTROLLER_GRACE_MS);
    }

    private void restartAndCheck(List<String> java, TopicReader reader, AcknowledgedMessages acknowledged,
                                 String when) throws Exception {
        standalone = launch(java);
        standalone.awaitLogLine(BROKER_BOOT, BOOT_TIMEOUT);
        acknowledged.assertAllServed(reader, SERVE_TIMEOUT, when);
    }

    private ChildJvm launch(List<String> java) {
        return ChildJvm.start("vrmq-standalone", dir, java, Map.of());
    }

    /** One config file per role; the ports stay the same across restarts. */
    private List<String> javaArguments(int namesrvPort, String namesrvAddr) throws Exception {
        int controllerPort = FreePorts.any();
        Path namesrvConf = write("namesrv.json", "{\"listenPort\": " + namesrvPort + ", \"bindAddress\": \"127.0.0.1\","
            + " \"adminPort\": -1, \"kvConfigPath\": \"" + dir.resolve("kv.json") + "\"}");
        Path controllerConf = write("controller.json", "{\"controllerDLegerPeers\": \"n0-127.0.0.1:" + controllerPort
            + "\", \"controllerDLegerSelfId\": \"n0\", \"controllerRaftPeers\": \"n0-127.0.0.1:" + FreePorts.any()
            + "\", \"controllerStorePath\": \"" + dir.resolve("controller") + "\", \"configStorePath\": \""
            + dir.resolve("controller.properties") + "\", \"bindAddress\": \"127.0.0.1\", \"adminPort\": -1}");
        Path brokerConf = write("broker.json", "{\"listenPort\": " + FreePorts.forBroker() + ", \"namesrvAddr\": \""
            + namesrvAddr + "\", \"bindAddress\": \"127.0.0.1\", \"brokerIP1\": \"127.0.0.1\", \"storePathRootDir\": \""
            + dir.resolve("store") + "\", \"flushDiskType\": \"SYNC_FLUSH\", \"mappedFileSizeCommitLog\": "
            + SEGMENT_BYTES + ", \"maxMessageSize\": " + SEGMENT_BYTES / 2 + ", \"adminPort\": -1, \"grpcListenPort\": -1,"
            + " \"registerNameServerPeriod\": 2000}");
        return List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar",
            System.getProperty(JAR_PROPERTY), "-namesrv-conf", namesrvConf.toString(), "-controller-conf",
            controllerConf.toString(), "-broker-conf", brokerConf.toString());
    }

    private Path write(String name, String json) throws Exception {
        return Files.writeString(dir.resolve(name), json, StandardCharsets.UTF_8);
    }
}
