package io.vrmq.compat.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.FreePorts;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.VrmqController;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our controller (one Raft node) stopped at every phase: SIGTERM idle once it leads, at once, 300 ms after the launch,
 * while it reads its config, while Raft starts, under load (the official admin's updateControllerConfig, which the
 * controller persists before it answers) and right after its boot line; and the NameServer with its embedded
 * controller (the standalone jar) while the controller's Raft starts and right after its boot line. Each time the exit
 * is prompt with code 0 and no blocked thread, and a later start leads again and answers the official admin with the
 * last acknowledged setting.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ControllerStopAtAnyMomentIT {
    private static final String SETTING = "scanInactiveMasterInterval";
    /** Settings written as BASE + n: any value of the counter is a sane scan interval. */
    private static final long SETTING_BASE_MS = 60_000;
    private static final long WRITES_BEFORE_SIGNAL = 10;
    private static final String RAFT_START_LINE = "starting Raft";
    private static final Duration SERVE_TIMEOUT = Duration.ofSeconds(60);
    private static final String STANDALONE_JAR_PROPERTY = "vrmq.standalone.jar";

    @RegisterExtension
    final CompatResources resources = new CompatResources();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private DefaultMQAdminExt admin;
    private ChildJvm embedded;

    @BeforeEach
    void startAdmin() throws Exception {
        // The admin needs a NameServer address to start; the controller commands go to the controller itself.
        admin = resources.closeLater(new AutoCloseableAdmin(OfficialClients.admin("127.0.0.1:" + FreePorts.any())))
            .admin();
    }

    @AfterEach
    void stopEmbedded() {
        if (embedded != null) {
            embedded.close();
        }
    }

    @Test
    void sigtermAtEveryPhaseOfTheControllerKeepsEveryAcknowledgedSetting() throws Exception {
        VrmqController controller = resources.controller(dir.resolve("controller"), Map.of());
        CountingWrites writes = settingWrites(controller, 1);
        writes.awaitAcknowledged(WRITES_BEFORE_SIGNAL, SERVE_TIMEOUT);
        writes.stop();
        StopChecks.sigtermAt(controller.process(), KillPoint.atLine("idle, leading", VrmqController.BOOT_LINE),
            StopChecks.CONTROLLER_GRACE_MS);

        StopChecks.sigtermAt(controller.launch(), KillPoint.AT_ONCE, StopChecks.CONTROLLER_GRACE_MS);
        StopChecks.sigtermAt(controller.launch(), KillPoint.JUST_AFTER_THE_LAUNCH, StopChecks.CONTROLLER_GRACE_MS);

        restartAndCheck(controller, writes, "after SIGTERM at once and 300 ms after the launch");
        CountingWrites underLoad = settingWrites(controller, writes.nextValue());
        underLoad.awaitAcknowledged(writes.nextValue() + WRITES_BEFORE_SIGNAL, SERVE_TIMEOUT);
        StopChecks.sigtermAt(controller.process(), KillPoint.atLine("under load", VrmqController.BOOT_LINE),
            StopChecks.CONTROLLER_GRACE_MS);
        underLoad.stop();

        StopChecks.sigtermAt(controller.launch(), KillPoint.atLine("reading its config",
            "controller: reading its config"), StopChecks.CONTROLLER_GRACE_MS);
        StopChecks.sigtermAt(controller.launch(), KillPoint.atLine("while Raft starts", RAFT_START_LINE),
            StopChecks.CONTROLLER_GRACE_MS);
        StopChecks.sigtermAt(controller.launch(), KillPoint.atLine("right after the boot line",
            VrmqController.BOOT_LINE), StopChecks.CONTROLLER_GRACE_MS);

        restartAndCheck(controller, underLoad, "after SIGTERM under load, reading the config, in the Raft start and"
            + " after the boot line");
        StopChecks.sigtermAt(controller.process(), KillPoint.atLine("idle", VrmqController.BOOT_LINE),
            StopChecks.CONTROLLER_GRACE_MS);
    }

    @Test
    void sigtermWhileTheEmbeddedControllerStartsStopsTheNameServerWithIt() throws Exception {
        int namesrvPort = FreePorts.any();
        String controllerAddress = "127.0.0.1:" + FreePorts.any();
        Path config = Files.writeString(dir.resolve("namesrv.json"), "{\n"
            + "  \"listenPort\": " + namesrvPort + ", \"bindAddress\": \"127.0.0.1\", \"adminPort\": -1,\n"
            + "  \"kvConfigPath\": \"" + dir.resolve("kv.json") + "\",\n"
            + "  \"enableControllerInNamesrv\": true,\n"
            + "  \"controllerDLegerPeers\": \"n0-" + controllerAddress + "\", \"controllerDLegerSelfId\": \"n0\",\n"
            + "  \"controllerRaftPeers\": \"n0-127.0.0.1:" + FreePorts.any() + "\",\n"
            + "  \"controllerStorePath\": \"" + dir.resolve("embedded-controller") + "\",\n"
            + "  \"configStorePath\": \"" + dir.resolve("embedded-controller.properties") + "\",\n"
            + "  \"controllerAdminPort\": -1,\n"
            // The NameServer's key bounds the whole stop of the JVM: the controller's default, for its Raft close.
            + "  \"shutdownGraceMs\": " + StopChecks.CONTROLLER_GRACE_MS + "\n}\n");
        List<String> java = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
            System.getProperty(STANDALONE_JAR_PROPERTY),
            "io.vrmq.standalone.NameServerWithControllerMain", "-conf", config.toString());

        embedded = ChildJvm.start("vrmq-namesrv-with-controller", dir, java, Map.of());
        StopChecks.sigtermAt(embedded, KillPoint.atLine("while the embedded controller's Raft starts", RAFT_START_LINE),
            StopChecks.CONTROLLER_GRACE_MS);
        embedded = ChildJvm.start("vrmq-namesrv-with-controller", dir, java, Map.of());
        StopChecks.sigtermAt(embedded, KillPoint.atLine("right after the controller's boot line",
            VrmqController.BOOT_LINE), StopChecks.CONTROLLER_GRACE_MS);

        embedded = ChildJvm.start("vrmq-namesrv-with-controller", dir, java, Map.of());
        embedded.awaitLogLine(NameServerKind.BOOT_LINE, SERVE_TIMEOUT);
        Await.until("the embedded controller leads again", SERVE_TIMEOUT,
            () -> controllerAddress.equals(admin.getControllerMetaData(controllerAddress)
                .getControllerLeaderAddress()));
        StopChecks.sigtermAt(embedded, KillPoint.atLine("idle", VrmqController.BOOT_LINE),
            StopChecks.CONTROLLER_GRACE_MS);
    }

    private CountingWrites settingWrites(VrmqController controller, long firstValue) {
        return CountingWrites.start("controller-config", firstValue, value -> {
            Properties changes = new Properties();
            changes.setProperty(SETTING, Long.toString(SETTING_BASE_MS + value));
            admin.updateControllerConfig(changes, List.of(controller.address()));
        });
    }

    /** Starts the controller again; it must lead and report the last acknowledged setting or a later one. */
    private void restartAndCheck(VrmqController controller, CountingWrites writes, String when) throws Exception {
        controller.launch();
        controller.awaitBoot();
        controller.awaitLeaderReady();
        long expected = SETTING_BASE_MS + writes.lastAcknowledged();
        Await.until(SETTING + " at " + expected + " or later " + when, SERVE_TIMEOUT, () -> {
            Properties config = admin.getControllerConfig(List.of(controller.address())).get(controller.address());
            return config != null && Long.parseLong(config.getProperty(SETTING)) >= expected;
        });
        assertEquals(controller.address(), admin.getControllerMetaData(controller.address())
            .getControllerLeaderAddress(), "the restarted controller leads " + when);
        System.out.printf("%s: leads with %s >= %d %s%n", controller, SETTING, expected, when);
    }

    /** The admin as a resource the scope shuts down. */
    private record AutoCloseableAdmin(DefaultMQAdminExt admin) implements AutoCloseable {
        @Override
        public void close() {
            admin.shutdown();
        }
    }
}
