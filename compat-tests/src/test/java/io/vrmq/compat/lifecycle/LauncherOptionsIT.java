package io.vrmq.compat.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.FreePorts;
import io.vrmq.compat.support.NameServerKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our jars start through the Vert.x launcher: {@code java -jar vrmq-namesrv.jar -conf <file>} plus the launcher's
 * {@code -options} (Vert.x options as JSON: one event loop here, so no second event-loop thread ever logs), a clean
 * SIGTERM exit 0 after it; {@code --instances 2} spreads the broker's connections over two event loops and stops a
 * NameServer's start with exit 1 (it has one table to serve), as an option the launcher does not know does
 * and a reason.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LauncherOptionsIT {
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FAILED_START_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private final List<ChildJvm> children = new ArrayList<>();

    @AfterEach
    void stopChildren() {
        children.forEach(ChildJvm::close);
    }

    @Test
    void dashOptionsSetsTheVertxOptionsAndSigtermStillExitsZero() throws IOException {
        ChildJvm nameServer = launch("-conf", config().toString(), "-options", "{\"eventLoopPoolSize\": 1}");
        nameServer.awaitLogLine(NameServerKind.BOOT_LINE, BOOT_TIMEOUT);

        assertTrue(nameServer.stop(), "exits on SIGTERM" + nameServer.describeLog());
        assertEquals(0, nameServer.exitCode(), "clean stop" + nameServer.describeLog());
        String log = nameServer.logSinceStart();
        assertTrue(log.contains("vert.x-eventloop-thread-0"), "the event loop logged" + nameServer.describeLog());
        assertFalse(log.contains("vert.x-eventloop-thread-1"), "-options eventLoopPoolSize 1 applied"
            + nameServer.describeLog());
    }

    /** Without launcher options (only -conf) the launcher's -Dvertx.options.* properties still apply. */
    @Test
    void vertxOptionsPropertiesApplyWithoutLauncherOptions() throws IOException {
        ChildJvm nameServer = launch(List.of("-Dvertx.options.eventLoopPoolSize=1"), "-conf", config().toString());
        nameServer.awaitLogLine(NameServerKind.BOOT_LINE, BOOT_TIMEOUT);

        assertTrue(nameServer.stop(), "exits on SIGTERM" + nameServer.describeLog());
        assertEquals(0, nameServer.exitCode(), "clean stop" + nameServer.describeLog());
        String log = nameServer.logSinceStart();
        assertTrue(log.contains("vert.x-eventloop-thread-0"), "the event loop logged" + nameServer.describeLog());
        assertFalse(log.contains("vert.x-eventloop-thread-1"), "-Dvertx.options.eventLoopPoolSize=1 applied"
            + nameServer.describeLog());
    }

    @Test
    void moreThanOneInstanceIsRefusedNamingTheOption() throws IOException {
        ChildJvm nameServer = launch("-conf", config().toString(), "--instances", "2");

        String log = StopChecks.awaitFailedStart(nameServer, FAILED_START_TIMEOUT);
        assertTrue(log.contains("start failed: --instances 2"), "says why" + nameServer.describeLog());
    }

    @Test
    void instancesSpreadTheBrokersConnectionsOverEventLoops() throws IOException {
        int port = FreePorts.forBroker();
        Path config = Files.writeString(dir.resolve("broker.json"), "{\"listenPort\": " + port
            + ", \"brokerIP1\": \"127.0.0.1\", \"adminPort\": -1, \"grpcListenPort\": -1, \"storePathRootDir\": \""
            + dir.resolve("store") + "\"}");
        Path jar = Path.of(System.getProperty("vrmq.broker.jar", "../broker-verticle/target/vrmq-broker.jar"));
        ChildJvm broker = ChildJvm.start("vrmq-broker-launcher", dir, List.of("-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-jar",
            jar.toAbsolutePath().toString(), "-conf", config.toString(), "--instances", "2"), Map.of());
        children.add(broker);
        broker.awaitLogLine("boot success", BOOT_TIMEOUT);

        String log = broker.logSinceStart();
        assertTrue(log.contains("served by 2 event loop(s)"), "--instances 2 applied" + broker.describeLog());
        assertTrue(broker.stop(), "exits on SIGTERM" + broker.describeLog());
        assertEquals(0, broker.exitCode(), "clean stop" + broker.describeLog());
    }

    @Test
    void anOptionTheLauncherDoesNotKnowStopsTheStart() throws IOException {
        ChildJvm nameServer = launch("-conf", config().toString(), "-no-such-option");

        String log = StopChecks.awaitFailedStart(nameServer, FAILED_START_TIMEOUT);
        assertTrue(log.contains("-no-such-option"), "names the option" + nameServer.describeLog());
    }

    private Path config() throws IOException {
        return Files.writeString(dir.resolve("namesrv.json"), "{\"listenPort\": " + FreePorts.any()
            + ", \"bindAddress\": \"127.0.0.1\", \"adminPort\": -1, \"kvConfigPath\": \""
            + dir.resolve("kv.json") + "\"}");
    }

    private ChildJvm launch(String... arguments) {
        return launch(List.of(), arguments);
    }

    private ChildJvm launch(List<String> jvmArguments, String... arguments) {
        Path jar = Path.of(System.getProperty("vrmq.namesrv.jar", "../nameserver-verticle/target/vrmq-namesrv.jar"));
        List<String> command = new ArrayList<>(List.of("-Xmx128m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmArguments);
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
        command.addAll(List.of(arguments));
        ChildJvm child = ChildJvm.start("vrmq-namesrv-launcher", dir, command, Map.of());
        children.add(child);
        return child;
    }
}
