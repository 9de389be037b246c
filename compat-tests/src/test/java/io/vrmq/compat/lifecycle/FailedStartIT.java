package io.vrmq.compat.lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.NameServerKind;
import io.vrmq.compat.support.NameServerSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start that fails (here: the listen port is taken) exits 1 by itself with its reason, without a blocked event loop
 * (the failure used to call System.exit on the event loop while the shutdown hook waited for Vert.x), and a broker
 * that had already opened its store closes it cleanly first.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailedStartIT {
    /** The start, then the stop of what did start, bounded by the grace. */
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aNameServerWhosePortIsTakenExitsOneWithItsReason() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ChildJvm nameServer = NameServerKind.launchVrmq(dir.resolve("namesrv"),
                NameServerSettings.defaults(dir.resolve("namesrv")), taken.getLocalPort());

            StopChecks.awaitFailedStart(nameServer, EXIT_TIMEOUT);
        }
    }

    @Test
    void aBrokerWhoseFastChannelPortIsTakenClosesItsStoreAndExitsOne() throws IOException {
        VrmqBroker broker = VrmqBroker.start(BrokerSettings.defaults("broker-failed-start", "127.0.0.1:1",
            dir.resolve("broker")), Map.of());
        StopChecks.sigtermAt(broker.process(), KillPoint.atLine("idle", VrmqBroker.BOOT_LINE_END),
            StopChecks.DEFAULT_GRACE_MS);
        try (ServerSocket taken = new ServerSocket(broker.listenPort() - 2, 1, InetAddress.getLoopbackAddress())) {
            ChildJvm failing = broker.launch();

            String log = StopChecks.awaitFailedStart(failing, EXIT_TIMEOUT);

            assertTrue(log.contains("store " + broker.settings().storePathRootDir() + " closed"), "the store it"
                + " had opened was closed" + failing.describeLog());
            assertFalse(Files.exists(broker.settings().storePathRootDir().resolve("abort")), "closed cleanly");
        }
    }
}
