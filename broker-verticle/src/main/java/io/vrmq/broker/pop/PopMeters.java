package io.vrmq.broker.pop;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * POP's meters (Prometheus names {@code rocketmq_pop_*}): messages popped, checkpoints written, acks, changes of
 * invisible time, messages revived into retry topics and into DLQs, the time from an ack request to its durable
 * answer, and gauges of the messages in flight and the held pops. Thread-safe.
 */
final class PopMeters {
    private final Counter popped;
    private final Counter checkpoints;
    private final Counter acked;
    private final Counter changed;
    private final Counter revived;
    private final Counter deadLettered;
    private final Timer ackLatency;

    PopMeters(MeterRegistry registry, PopInflight inflight, IntSupplier heldPops) {
        this.popped = Counter.builder("rocketmq.pop.messages").description("messages handed out by POP")
            .register(registry);
        this.checkpoints = Counter.builder("rocketmq.pop.checkpoints")
            .description("revive-log records of pops written (one per queue a pop took messages from)")
            .register(registry);
        this.acked = Counter.builder("rocketmq.pop.acks").description("messages acked (ACK and BATCH_ACK)")
            .register(registry);
        this.changed = Counter.builder("rocketmq.pop.invisible.changes")
            .description("CHANGE_MESSAGE_INVISIBLETIME requests that moved a message's deadline").register(registry);
        this.revived = Counter.builder("rocketmq.pop.revived")
            .description("unacked messages put into their group's POP retry topic after the invisible time")
            .register(registry);
        this.deadLettered = Counter.builder("rocketmq.pop.dead.letters")
            .description("unacked messages past their group's retryMaxTimes, put into %DLQ%group").register(registry);
        this.ackLatency = Timer.builder("rocketmq.pop.ack.latency")
            .description("from an ACK request decoded to its answer (the ack record durable)")
            .publishPercentiles(0.5, 0.99).register(registry);
        Gauge.builder("rocketmq.pop.inflight", inflight, PopInflight::total)
            .description("popped messages neither acked nor revived yet").register(registry);
        Gauge.builder("rocketmq.pop.held", heldPops, IntSupplier::getAsInt)
            .description("POP and NOTIFICATION requests held by long polling").register(registry);
    }

    void popped(int messages, int checkpointRecords) {
        popped.increment(messages);
        checkpoints.increment(checkpointRecords);
    }

    void acked(int messages, long startNanos) {
        acked.increment(messages);
        ackLatency.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    void changed() {
        changed.increment();
    }

    void revived(int toRetry, int toDeadLetter) {
        revived.increment(toRetry);
        deadLettered.increment(toDeadLetter);
    }
}
