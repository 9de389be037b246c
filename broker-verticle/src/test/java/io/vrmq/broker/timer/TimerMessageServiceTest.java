package io.vrmq.broker.timer;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.DelayLevels;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.broker.store.ScheduleTagsCode;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.StoreConfig;
import io.vrmq.store.StoreOptions;
import io.vrmq.store.TagFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The timer service on a real store in a temp directory, with a clock the test moves (store and service share it):
 * what it delivers when its scan is behind the timer queue, or the queue behind the commit log.
 */
@ExtendWith(VertxExtension.class)
class TimerMessageServiceTest {
    private static final String TOPIC = "BacklogTopic";
    /** More than one scan read (256 entries) between the held messages and the recall's delete record. */
    private static final int FILLERS = 300;
    private static final long WAIT_MS = 10_000;
    /** How long a wrongly released slot gets to show: a turn takes well under a millisecond here. */
    private static final long GATED_WINDOW_MS = 500;

    /**
     * Held messages A and B of one second, then a backlog of later timers, then the recall of A, all stored before
     * that second ends; the service starts after it ended and scans one read per turn. The slot must wait for the
     * scan to reach the delete record: only B is delivered.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aDeleteRecordBehindAScanBacklogStillCancelsItsMessage(Vertx vertx, VertxTestContext test,
                                                                @TempDir Path dir) {
        Fixture f = new Fixture(vertx, dir, 1);
        Context context = vertx.getOrCreateContext();

        Future<?> stored = f.store.append(timer(f.routing, "A", f.deliverMs, false))
            .compose(a -> f.store.append(timer(f.routing, "B", f.deliverMs, false)));
        for (int i = 0; i < FILLERS; i++) {
            String key = "F" + i;
            stored = stored.compose(previous -> f.store.append(timer(f.routing, key, f.deliverMs + 3_600_000, false)));
        }
        stored.compose(fillers -> f.store.append(timer(f.routing, "A", f.deliverMs, true)))
            .compose(recall -> until(vertx, () -> f.opened.getMaxOffsetInQueue(TimerRouting.TIMER_TOPIC, 0)
                == FILLERS + 3))
            .compose(dispatched -> {
                f.clockMs.set(TimerRouting.dueMs(f.deliverMs / 1_000 * 1_000));
                return onContext(context, f.service::start);
            })
            .compose(started -> until(vertx, () -> f.flow.heldCount() == FILLERS
                && f.opened.getMaxOffsetInQueue(TOPIC, 0) >= 1 && f.opened.dispatchedOffset() >= f.opened
                .getCommitLogMaxOffset()))
            .compose(delivered -> {
                test.verify(() -> {
                    assertEquals(1, f.opened.getMaxOffsetInQueue(TOPIC, 0), "the recalled message was delivered");
                    GetMessageResult read = f.opened.getMessages(TOPIC, 0, 0, 1, Integer.MAX_VALUE, TagFilter.ALL);
                    assertEquals("B", StoredMessage.decode(read.messages().get(0).record()).propertyMap()
                        .get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
                });
                return onContext(context, f.service::stop);
            })
            .eventually(() -> f.store.close())
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * Held message A, then its recall stored before A's second ends but held back from the ConsumeQueues (the
     * confirm-offset gate stands in for a dispatcher running behind). When the second has ended the timer queue
     * looks read to its end; the slot must still wait for the dispatcher, so A is never delivered.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aDeleteRecordTheDispatcherHasNotReachedStillCancelsItsMessage(Vertx vertx, VertxTestContext test,
                                                                        @TempDir Path dir) {
        Fixture f = new Fixture(vertx, dir, 1_000);
        Context context = vertx.getOrCreateContext();
        f.opened.setDispatchListener((topic, queueId, maxOffset, tagsCode, storeMs) ->
            f.service.onDispatched(topic, queueId));   // as the broker wires it

        f.store.append(timer(f.routing, "A", f.deliverMs, false))
            .compose(a -> until(vertx, () -> f.opened.getMaxOffsetInQueue(TimerRouting.TIMER_TOPIC, 0) == 1))
            .compose(dispatched -> onContext(context, f.service::start))
            .compose(started -> until(vertx, () -> f.flow.heldCount() == 1))
            .compose(held -> {
                f.opened.setConfirmOffset(f.opened.getCommitLogMaxOffset());
                f.opened.setDispatchGatedByConfirmOffset(true);
                return f.store.append(timer(f.routing, "A", f.deliverMs, true));
            })
            .compose(recallStored -> {
                f.clockMs.set(TimerRouting.dueMs(f.deliverMs / 1_000 * 1_000));
                f.service.onDispatched(TimerRouting.TIMER_TOPIC, TimerRouting.TIMER_QUEUE_ID);
                return delay(vertx, GATED_WINDOW_MS);   // time for a turn that would wrongly deliver A
            })
            .compose(gatedWindow -> {
                test.verify(() -> assertEquals(1, f.flow.heldCount(), "A left the index before its recall was read"));
                f.opened.setConfirmOffset(f.opened.getCommitLogMaxOffset());
                f.opened.setDispatchGatedByConfirmOffset(false);
                return until(vertx, () -> f.flow.heldCount() == 0
                    && f.opened.dispatchedOffset() >= f.opened.getCommitLogMaxOffset());
            })
            .compose(done -> {
                test.verify(() -> assertEquals(0, f.opened.getMaxOffsetInQueue(TOPIC, 0),
                    "the recalled message was delivered"));
                return onContext(context, f.service::stop);
            })
            .eventually(() -> f.store.close())
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * A store and a timer service sharing a clock the test moves, set at a second's start; {@code deliverMs} is in
     * the second after the next, so its slot is due two seconds on. {@code maxScanPerTurn}: entries read per turn.
     */
    private static final class Fixture {
        final AtomicLong clockMs = new AtomicLong(System.currentTimeMillis() / 1_000 * 1_000);
        final long deliverMs = clockMs.get() + 2_001;
        final MessageStore opened;
        final StoreAccess store;
        final TimerFlowControl flow = TimerFlowControl.of(1_000_000, 1_000_000, 1_000);
        final TimerRouting routing = new TimerRouting(clockMs::get, TimerRouting.TIMER_MAX_DELAY_SEC, flow);
        final TimerMessageService service;

        Fixture(Vertx vertx, Path dir, int maxScanPerTurn) {
            opened = open(dir, clockMs);
            store = new StoreAccess(vertx, opened, 1);
            service = new TimerMessageService(vertx, store, progressFile(vertx, dir), clockMs::get, flow,
                maxScanPerTurn);
        }
    }

    private static MessageStore open(Path dir, AtomicLong clockMs) {
        return MessageStore.open(StoreConfig.from(Map.of("storePathRootDir", dir.toString(),
                "mappedFileSizeCommitLog", 4 * 1024 * 1024, "maxMessageSize", 1024 * 1024, "storeHost",
                "127.0.0.1:10911")),
            StoreOptions.defaults().withClock(() -> Instant.ofEpochMilli(clockMs.get()))
                .withTagsCodes(new ScheduleTagsCode(DelayLevels.parse("1s"))));
    }

    private static TimerProgress.File progressFile(Vertx vertx, Path dir) {
        return new TimerProgress.File(new JsonFile(vertx.fileSystem(), dir.resolve("timerProgress.json").toString()),
            new RemotingJson());
    }

    private static Future<Void> delay(Vertx vertx, long ms) {
        Promise<Void> done = Promise.promise();
        vertx.setTimer(ms, id -> done.complete());
        return done.future();
    }

    /** A timer message (or the recall of one) as the send and recall paths store it. */
    private static MessageToStore timer(TimerRouting routing, String key, long deliverMs, boolean isRecall) {
        Map<String, String> properties = new HashMap<>();
        properties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, key);
        properties.put(MessageConst.TIMER_DELIVER_MS, Long.toString(deliverMs));
        if (isRecall) {
            properties.put(MessageConst.TIMER_DEL_UNIQKEY, key);
        }
        if (!routing.holdUntilDue(TOPIC, 0, properties)) {
            throw new IllegalStateException("deliver time " + deliverMs + " is past");
        }
        return MessageToStore.of(TimerRouting.TIMER_TOPIC, TimerRouting.TIMER_QUEUE_ID,
            key.getBytes(StandardCharsets.UTF_8), MessageProperties.format(properties));
    }

    private static Future<Void> onContext(Context context, Supplier<Future<Void>> action) {
        Promise<Void> done = Promise.promise();
        context.runOnContext(ignored -> action.get().onComplete(done));
        return done.future();
    }

    /** Completes once {@code condition} holds (polled every 10 ms), fails after {@link #WAIT_MS}. */
    private static Future<Void> until(Vertx vertx, BooleanSupplier condition) {
        Promise<Void> done = Promise.promise();
        long deadline = System.currentTimeMillis() + WAIT_MS;
        vertx.setPeriodic(10, id -> {
            if (condition.getAsBoolean()) {
                vertx.cancelTimer(id);
                done.tryComplete();
            } else if (System.currentTimeMillis() > deadline) {
                vertx.cancelTimer(id);
                done.tryFail("condition not met within " + WAIT_MS + " ms");
            }
        });
        return done.future();
    }
}
