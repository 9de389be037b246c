package io.vrmq.client.trace;

import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ProducerOptions;
import io.vrmq.client.internal.ClientRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The dispatcher's bounds: records beyond traceQueueCapacity are dropped and counted, a trace send that cannot
 * reach any NameServer is counted as failed without failing anything else, and after close's drain nothing is taken.
 */
@ExtendWith(VertxExtension.class)
class TraceDispatcherTest {
    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void recordsBeyondTheCapacityAreDroppedAndCounted(Vertx vertx, VertxTestContext test) {
        // port 1 on loopback: nothing listens, every route look-up fails at once
        ProducerOptions options = new ProducerOptions().setNamesrvAddr("127.0.0.1:1").setProducerGroup("PG")
            .setEnableMsgTrace(true).setTraceQueueCapacity(3).setTraceMsgBatchNum(10)
            .setTraceFlushIntervalMs(60_000);
        ClientRuntime runtime = new ClientRuntime(vertx, options);
        TraceDispatcher dispatcher = TraceDispatcher.create(runtime, options, "PG", "PRODUCE");
        AtomicLong droppedBeforeDrain = new AtomicLong();
        runtime.onContext(() -> {
            dispatcher.append(List.of(record("a"), record("b")));
            dispatcher.append(List.of(record("c"), record("d")));   // 4 > 3: both dropped, none taken
            dispatcher.append(List.of(record("e")));
            droppedBeforeDrain.set(dispatcher.droppedCount());
            return dispatcher.drain().map(drained -> {
                dispatcher.append(List.of(record("f")));
                return dispatcher;
            });
        }).eventually(runtime::close).onComplete(test.succeeding(drained -> test.verify(() -> {
            assertEquals(2, droppedBeforeDrain.get());
            assertEquals(3, drained.droppedCount());
            assertEquals(3, drained.failedRecordCount());
            assertEquals(0, drained.sentRecordCount());
            test.completeNow();
        })));
    }

    private static TraceRecord record(String msgId) {
        return TraceText.pub(new TraceText.Pub(1L, "r", "PG", "T", msgId, null, null, "h:1", 0, 0,
            TraceText.MSG_TYPE_NORMAL, "OFF", true));
    }
}
