package io.vrmq.broker;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.store.MessageStore;
import io.vrmq.store.StoreConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A broker start that does not complete leaves its store as it found it or closed cleanly: Vert.x never calls stop()
 * after a failed start, so the broker releases what it opened itself (see {@link BrokerVerticle}).
 */
@ExtendWith(VertxExtension.class)
class BrokerStartReleaseIT {

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aStartInterruptedBeforeItsStoreOpenedFailsWithCancellationAndLocksNothing(Vertx vertx, VertxTestContext test,
                                                                                 @TempDir Path dir) {
        BrokerVerticle broker = new BrokerVerticle(TestBrokerRequests.config(dir));
        broker.interruptStart();   // as the shutdown hook does when a SIGTERM comes before the start ran its steps

        vertx.deployVerticle(broker).onComplete(test.failing(error -> test.verify(() -> {
            assertInstanceOf(CancellationException.class, error);
            assertFalse(Files.exists(dir.resolve("abort")), "the store was never opened");
            reopenCleanly(dir);
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aStartThatFailsAfterOpeningItsStoreClosesItCleanly(Vertx vertx, VertxTestContext test, @TempDir Path dir)
        throws IOException {
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        JsonObject config = TestBrokerRequests.config(dir).put("bindAddress", "127.0.0.1")
            .put("listenPort", taken.getLocalPort());   // the listen after the store opened fails

        vertx.deployVerticle(new BrokerVerticle(config)).onComplete(test.failing(error -> test.verify(() -> {
            taken.close();
            assertTrue(Files.exists(dir.resolve("commitlog")), "the store had been opened: " + error);
            assertFalse(Files.exists(dir.resolve("abort")), "closed cleanly after the failed start: " + error);
            reopenCleanly(dir);
            test.completeNow();
        })));
    }

    /** The directory lock was released, and the next open is a clean one. */
    private static void reopenCleanly(Path dir) {
        try (MessageStore store = MessageStore.open(StoreConfig.from(Map.of("storePathRootDir", dir.toString(),
                "mappedFileSizeCommitLog", 4 * 1024 * 1024, "maxMessageSize", 1024 * 1024)))) {
            assertTrue(store.recoveryReport().cleanShutdown(), store.recoveryReport().toString());
        }
    }
}
