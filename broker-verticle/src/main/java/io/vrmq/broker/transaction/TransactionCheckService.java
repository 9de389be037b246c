package io.vrmq.broker.transaction;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.offset.ConsumerOffsetTable;
import io.vrmq.broker.store.StoreAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.LongSupplier;

/**
 * RocketMQ's TransactionalMessageCheckService: every transactionCheckInterval, one run over the half queue that
 * asks producers about transactions left open longer than transactionTimeOut and discards those asked
 * transactionCheckMax times (see {@link CheckVerdict}). A run reads on a store reader thread ({@link HalfQueueScan}),
 * then appends and sends on this service's context ({@link HalfActionRunner}), then moves the progress: the consume
 * offsets of the system group CID_RMQ_SYS_TRANS on the half and op topics, which the broker's offset table persists
 * with every other group's, so a restart goes on where the last run ended. Runs on a master only.
 * <p>
 * Not thread-safe: every method runs on the context that called {@link #start}; at most one run at a time.
 */
public final class TransactionCheckService {
    private static final Logger log = LoggerFactory.getLogger(TransactionCheckService.class);
    private static final int HALF_QUEUE_ID = TransactionNames.HALF_QUEUE_ID;
    private static final long HOUR_MS = 3_600_000L;

    private final Vertx vertx;
    private final StoreAccess store;
    private final ConsumerOffsetTable offsets;
    private final HalfQueueScan scan;
    private final HalfActionRunner runner;
    private final long intervalMs;
    private final LongSupplier clockMs;
    private Context context;
    private long timerId = -1;
    private boolean isRunning;
    private boolean isStopped;
    private Future<Void> run = Future.succeededFuture();

    TransactionCheckService(Vertx vertx, StoreAccess store, ConsumerOffsetTable offsets, HalfQueueScan scan,
                            HalfActionRunner runner, long intervalMs, LongSupplier clockMs) {
        this.vertx = vertx;
        this.store = store;
        this.offsets = offsets;
        this.scan = scan;
        this.runner = runner;
        this.intervalMs = intervalMs;
        this.clockMs = clockMs;
    }

    /** Builds the service for {@code broker} and starts it on the calling context; it first runs an interval later. */
    public static TransactionCheckService start(Vertx vertx, BrokerContext broker) {
        TransactionConfig config = broker.config().transaction();
        long fileReservedMs = broker.store().store().config().fileReservedTimeHours() * HOUR_MS;
        HalfQueueScan scan = new HalfQueueScan(broker.store().store(), config, fileReservedMs);
        HalfActionRunner runner = new HalfActionRunner(broker.store(), broker.topics(),
            OpRecords.of(broker),
            new TransactionCheckSender(broker.clients(), broker.config().brokerName()));
        TransactionCheckService service = new TransactionCheckService(vertx, broker.store(), broker.offsets(), scan,
            runner, config.transactionCheckIntervalMs(), System::currentTimeMillis);
        service.start();
        return service;
    }

    void start() {
        context = vertx.getOrCreateContext();
        timerId = vertx.setPeriodic(intervalMs, id -> runNow());
        log.info("transaction check service started: every {} ms, progress half {} op {}", intervalMs,
            progress(TransactionNames.HALF_TOPIC), progress(TransactionNames.OP_TOPIC));
    }

    /** Starts a run unless one is running (a tick during a long run is dropped, as RocketMQ's waits). */
    void runNow() {
        if (isRunning || isStopped) {
            return;
        }
        isRunning = true;
        run = runOnce().transform(outcome -> {
            isRunning = false;
            if (outcome.failed()) {
                log.error("transaction check run failed; next run in {} ms", intervalMs, outcome.cause());
            } else if (outcome.result()) {
                context.runOnContext(ignored -> runNow());
            }
            return Future.succeededFuture();
        });
    }

    /** Refuses new runs and completes when the running one (if any) has moved the progress. */
    public Future<Void> stop() {
        isStopped = true;
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        return run;
    }

    /** One run; true when it stopped at a per-run limit and another should follow at once. */
    private Future<Boolean> runOnce() {
        long halfProgress = progress(TransactionNames.HALF_TOPIC);
        long opProgress = progress(TransactionNames.OP_TOPIC);
        long runStartMs = clockMs.getAsLong();
        return store.read(() -> scan.scan(halfProgress, opProgress, runStartMs))
            .compose(plan -> runner.carryOut(plan.actions(), () -> isStopped).map(handled -> {
                long newHalfProgress = plan.halfProgressAfter(handled);
                save(TransactionNames.HALF_TOPIC, halfProgress, newHalfProgress);
                save(TransactionNames.OP_TOPIC, opProgress, plan.ops().progressAfter(newHalfProgress));
                return plan.hasMoreNow(handled);
            }));
    }

    private long progress(String topic) {
        return offsets.query(TransactionNames.SYSTEM_GROUP, topic, HALF_QUEUE_ID);
    }

    private void save(String topic, long before, long after) {
        if (after != before && after >= 0) {
            offsets.commit(TransactionNames.SYSTEM_GROUP, topic, HALF_QUEUE_ID, after);
        }
    }
}
