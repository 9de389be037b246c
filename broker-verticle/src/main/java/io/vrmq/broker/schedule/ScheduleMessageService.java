package io.vrmq.broker.schedule;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.DelayLevels;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.remoting.json.RemotingJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * Delivers delayed messages (RocketMQ's ScheduleMessageService): one {@link LevelDelivery} per delay level reads
 * SCHEDULE_TOPIC_XXXX queue level - 1 in order and stores each message into its REAL_TOPIC / REAL_QID once the
 * deliver time in its ConsumeQueue tagsCode has come.
 * <p>
 * Progress (per level, the next queue offset to deliver) is written to {@code config/delayOffset.json} after every
 * turn that delivered something and at stop. A clean stop waits for running turns and then writes, so a restart
 * neither loses nor repeats a message. A crash between a delivery and the next write repeats the messages delivered
 * since the last write: delivery is at-least-once over a crash, as in RocketMQ (which writes only every 10 s).
 * <p>
 * Runs on the Vert.x context that calls {@link #start()}; {@link #onDispatched} may be called from any thread.
 */
public final class ScheduleMessageService {
    private static final Logger log = LoggerFactory.getLogger(ScheduleMessageService.class);

    private final Vertx vertx;
    private final StoreAccess store;
    private final DelayLevels delayLevels;
    private final DelayOffsetFile offsetFile;
    private final DueMessageWriter writer;
    private final LongSupplier clockMs;
    private Context context;
    private LevelDelivery[] levels = new LevelDelivery[0];
    private volatile boolean isStarted;
    private volatile boolean isStopped;

    ScheduleMessageService(Vertx vertx, StoreAccess store, DelayLevels delayLevels, DelayOffsetFile offsetFile,
                           LongSupplier clockMs) {
        this.vertx = vertx;
        this.store = store;
        this.delayLevels = delayLevels;
        this.offsetFile = offsetFile;
        this.writer = new DueMessageWriter(store);
        this.clockMs = clockMs;
    }

    /** The broker's service: progress in {@code <storeRoot>/config/delayOffset.json}, the system clock. */
    public static ScheduleMessageService create(Vertx vertx, StoreAccess store, DelayLevels delayLevels,
                                                RemotingJson json, String storeRoot) {
        return new ScheduleMessageService(vertx, store, delayLevels, DelayOffsetFile.under(vertx, json, storeRoot),
            System::currentTimeMillis);
    }

    /** Loads progress, then starts every level. Call on the context the service is to run on. */
    public Future<Void> start() {
        context = vertx.getOrCreateContext();
        return offsetFile.load().map(saved -> {
            levels = IntStream.rangeClosed(1, delayLevels.maxLevel())
                .mapToObj(level -> new LevelDelivery(this, vertx, level, delayLevels.delayMs(level),
                    saved.getOrDefault(level, 0L)))
                .toArray(LevelDelivery[]::new);
            isStarted = true;
            log.info("schedule service started with {} delay levels, progress from {}: {}", levels.length,
                offsetFile.path(), saved);
            for (LevelDelivery level : levels) {
                level.wake();
            }
            return null;
        });
    }

    /** Dispatcher thread: an entry was written to some queue. Cheap unless it is a schedule queue. */
    public void onDispatched(String topic, int queueId) {
        if (!isStarted || isStopped || !TopicNames.SCHEDULE_TOPIC.equals(topic)) {
            return;
        }
        context.runOnContext(ignored -> {
            if (queueId >= 0 && queueId < levels.length) {
                levels[queueId].onNewEntry();
            }
        });
    }

    /** Refuses new turns, waits for running ones, then writes the final progress. */
    public Future<Void> stop() {
        isStopped = true;
        if (!isStarted) {
            return Future.succeededFuture();
        }
        List<Future<Void>> running = Arrays.stream(levels).map(LevelDelivery::idle).toList();
        return Future.join(running).transform(ignored -> persist())
            .onSuccess(written -> log.info("schedule service stopped; progress {}", offsets()));
    }

    /** Per level, the next queue offset to deliver (on the service context). */
    public Map<Integer, Long> offsets() {
        Map<Integer, Long> offsets = new HashMap<>();
        for (LevelDelivery level : levels) {
            offsets.put(level.level(), level.offset());
        }
        return offsets;
    }

    Future<Void> persist() {
        return offsetFile.write(offsets());
    }

    boolean isStopped() {
        return isStopped;
    }

    StoreAccess store() {
        return store;
    }

    DueMessageWriter writer() {
        return writer;
    }

    long clockMs() {
        return clockMs.getAsLong();
    }
}
