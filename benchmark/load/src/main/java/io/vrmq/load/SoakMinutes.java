package io.vrmq.load;

import io.vrmq.loadcommon.LatencyHistogram;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The soak's figures per minute of its run: send latency (request to SEND_OK) by the minute the send was answered,
 * end-to-end latency (send to first delivery) by the minute the message arrived, and the counts. One histogram per
 * minute and kind (230 KB each: 14 MB for 30 minutes). Thread-safe: send callbacks and consume threads record
 * concurrently; the main thread reads a minute once it is over.
 */
final class SoakMinutes {

    private final long startNanos;
    private final LatencyHistogram[] send;
    private final LatencyHistogram[] endToEnd;
    private final AtomicLongArray failed;

    /** @param minutes the run's length plus the drain's, rounded up: later events count in the last minute */
    SoakMinutes(long startNanos, int minutes) {
        this.startNanos = startNanos;
        this.send = new LatencyHistogram[minutes];
        this.endToEnd = new LatencyHistogram[minutes];
        this.failed = new AtomicLongArray(minutes);
        for (int minute = 0; minute < minutes; minute++) {
            send[minute] = new LatencyHistogram();
            endToEnd[minute] = new LatencyHistogram();
        }
    }

    void sendAnswered(long sentNanos, long answeredNanos) {
        send[minuteOf(answeredNanos)].record(answeredNanos - sentNanos);
    }

    void sendFailed(long answeredNanos) {
        failed.incrementAndGet(minuteOf(answeredNanos));
    }

    void delivered(long sentNanos, long deliveredNanos) {
        endToEnd[minuteOf(deliveredNanos)].record(deliveredNanos - sentNanos);
    }

    LatencyHistogram send(int minute) {
        return send[minute];
    }

    LatencyHistogram endToEnd(int minute) {
        return endToEnd[minute];
    }

    long failed(int minute) {
        return failed.get(minute);
    }

    private int minuteOf(long nanos) {
        return (int) Math.min(send.length - 1, Math.max(0, (nanos - startNanos) / 60_000_000_000L));
    }
}
