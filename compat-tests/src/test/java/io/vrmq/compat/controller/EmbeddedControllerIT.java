package io.vrmq.compat.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.mqadmin.MqAdmin;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.FreePorts;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.VrmqController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocketMQ's {@code enableControllerInNamesrv}: one file configures a NameServer and its embedded controller, which
 * the standalone jar runs in one JVM (what scripts/namesrv.sh starts for such a file); the plain NameServer jar
 * refuses the same file instead of ignoring the flag.
 */
class EmbeddedControllerIT {
    private static final String STANDALONE_JAR_PROPERTY = "vrmq.standalone.jar";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);

    private ChildJvm process;

    @AfterEach
    void stop() {
        if (process != null) {
            process.close();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aNameServerFileWithEnableControllerInNamesrvRunsBothInOneJvm(@TempDir Path dir) throws Exception {
        int namesrvPort = FreePorts.any();
        int controllerPort = FreePorts.any();
        String controller = "127.0.0.1:" + controllerPort;
        Path config = Files.writeString(dir.resolve("namesrv.json"), "{\n"
            + "  \"listenPort\": " + namesrvPort + ", \"bindAddress\": \"127.0.0.1\", \"adminPort\": -1,\n"
            + "  \"kvConfigPath\": \"" + dir.resolve("kv.json") + "\",\n"
            + "  \"enableControllerInNamesrv\": true,\n"
            + "  \"controllerDLegerPeers\": \"n0-" + controller + "\", \"controllerDLegerSelfId\": \"n0\",\n"
            + "  \"controllerRaftPeers\": \"n0-127.0.0.1:" + FreePorts.any() + "\",\n"
            + "  \"controllerStorePath\": \"" + dir.resolve("controller") + "\",\n"
            + "  \"configStorePath\": \"" + dir.resolve("controller.properties") + "\",\n"
            + "  \"controllerAdminPort\": -1\n}\n");
        process = ChildJvm.start("vrmq-namesrv-with-controller", dir, List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-cp",
            System.getProperty(STANDALONE_JAR_PROPERTY), "io.vrmq.standalone.NameServerWithControllerMain", "-conf",
            config.toString()), Map.of());
        process.awaitLogLine(NameServerKind.BOOT_LINE, BOOT_TIMEOUT);
        process.awaitLogLine(VrmqController.BOOT_LINE, BOOT_TIMEOUT);
        process.awaitLogLine("sees Raft leader n0", BOOT_TIMEOUT);

        MqAdmin.Output metadata = MqAdmin.run("127.0.0.1:" + namesrvPort, "getControllerMetaData", "-a", controller)
            .assertSucceeded();
        assertEquals(List.of("#ControllerLeaderAddress", controller), MqAdmin.Output.columns(metadata.lineWith(
            "#ControllerLeaderAddress")));
        assertTrue(process.stop(), "both stop on SIGTERM");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void thePlainNameServerRefusesEnableControllerInNamesrv(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("namesrv.json"), "{\"listenPort\": " + FreePorts.any()
            + ", \"enableControllerInNamesrv\": true, \"controllerDLegerPeers\": \"n0-127.0.0.1:1\"}");
        process = ChildJvm.start("vrmq-namesrv", dir, List.of("-Xmx128m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-jar",
            System.getProperty(NameServerKind.JAR_PROPERTY), "-conf", config.toString()), Map.of());
        process.awaitLogLine("NameServerWithControllerMain", BOOT_TIMEOUT);
        assertTrue(process.stop());
        assertTrue(process.describeLog().contains("start failed: enableControllerInNamesrv=true"),
            process.describeLog());
    }
}
