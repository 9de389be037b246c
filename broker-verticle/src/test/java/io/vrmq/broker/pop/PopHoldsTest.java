package io.vrmq.broker.pop;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Held pops on a real Vert.x context: how many a burst of dispatched messages wakes. */
@ExtendWith(VertxExtension.class)
class PopHoldsTest {
    private static final PopHolds.PollKey KEY = new PopHolds.PollKey("TopicA", "CG", PopMessageRequest.ALL_QUEUES);
    private static final long HOLD_MS = 60_000;

    @Test
    void twoMessagesDispatchedBeforeOneWakePassWakeTwoHeldPops(Vertx vertx, VertxTestContext test) {
        Context context = vertx.getOrCreateContext();
        PopHolds holds = new PopHolds(vertx, context, 100, 1_000);
        List<Integer> woken = new CopyOnWriteArrayList<>();
        context.runOnContext(ignored -> {
            for (int i = 0; i < 3; i++) {
                int pop = i;
                holds.hold(KEY, System.currentTimeMillis() + HOLD_MS, () -> woken.add(pop));
            }
            // Both arrive before the context runs the wake pass they schedule: one pass sees both.
            holds.onDispatched("TopicA");
            holds.onDispatched("TopicA");
            vertx.setTimer(200, id -> test.verify(() -> {
                assertEquals(List.of(0, 1), woken, "one held pop per message, oldest first");
                assertEquals(1, holds.heldCount(KEY), "the third still waits");
                test.completeNow();
            }));
        });
    }
}
