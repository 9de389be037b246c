package io.vrmq.broker.persist;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A state file loaded at start from the event loop is read and decoded on a worker (decoding a large topics.json on
 * the event loop blocked it), and the load completes back on the caller's context.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JsonFileTest {
    private record Decoded(String text, boolean wasOnEventLoop) {
    }

    @Test
    void aLoadDecodesOnAWorkerAndCompletesOnTheCallersContext(Vertx vertx, VertxTestContext test,
                                                              @TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("topics.json"), "{\"topicConfigTable\":{}}");
        Context eventLoop = vertx.getOrCreateContext();
        eventLoop.runOnContext(started -> load(vertx, dir.resolve("topics.json")).compose(present ->
                load(vertx, dir.resolve("absent.json")).map(absent -> {
                    test.verify(() -> {
                        assertEquals("{\"topicConfigTable\":{}}", present.text());
                        assertFalse(present.wasOnEventLoop(), "decoded on the event loop");
                        assertNull(absent.text());
                        assertFalse(absent.wasOnEventLoop(), "decoded on the event loop");
                        assertSame(eventLoop, Vertx.currentContext(), "completed on another context");
                    });
                    return null;
                }))
            .onComplete(test.succeedingThenComplete()));
    }

    private static Future<Decoded> load(Vertx vertx, Path file) {
        return new JsonFile(vertx.fileSystem(), file.toString()).read((Buffer bytes) -> new Decoded(
            bytes == null ? null : bytes.toString(), Context.isOnEventLoopThread()));
    }
}
