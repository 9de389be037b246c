package io.vrmq.loadcommon;

import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The once-a-second progress line of the load tools (benchmark/load's MessageLoadBench, benchmark/grpc-load's
 * GrpcLoadBench): over the last second, messages sent per second, MB/s, the p99 send latency, and with a consumer the
 * messages received per second; plus the totals, and how far the phase is ({@code 12000 of 100000 (12%)}) with the
 * time left at its rate so far ({@code about 35 s left}), the style of the store recovery's progress lines. Owns its
 * daemon thread. The main thread switches phases ({@link #sending}, {@link #draining}); the progress thread prints.
 */
public final class ProgressLine {

    private static final long INTERVAL_MS = 1_000;
    private static final double MIB = 1024.0 * 1024.0;

    private final String label;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "bench-progress");
        thread.setDaemon(true);
        return thread;
    });
    private String phase;
    private SendProgress load;
    private DeliveryTracker tracker;
    private int messageBytes;
    private long phaseStartNanos;
    private long lastNanos;
    private long lastSent;
    private long lastDelivered;
    private long drainStartDelivered;

    public ProgressLine(String label) {
        this.label = label;
        timer.scheduleAtFixedRate(this::print, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** A send phase starts; {@code tracker} is null when no consumer runs alongside. */
    public synchronized void sending(String phase, SendProgress load, DeliveryTracker tracker, int messageBytes) {
        start(phase, load, tracker, messageBytes);
    }

    /** Sending is over; only deliveries move now. */
    public synchronized void draining(DeliveryTracker tracker) {
        start("drain", null, tracker, messageBytes);
    }

    public void stop() {
        timer.shutdownNow();
    }

    private void start(String phase, SendProgress load, DeliveryTracker tracker, int messageBytes) {
        this.phase = phase;
        this.load = load;
        this.tracker = tracker;
        this.messageBytes = messageBytes;
        this.phaseStartNanos = System.nanoTime();
        this.lastNanos = phaseStartNanos;
        this.lastSent = 0;
        this.lastDelivered = tracker == null ? 0 : tracker.uniqueDeliveries();
        this.drainStartDelivered = lastDelivered;
    }

    /** "12000 of 100000 (12%), about 35 s left": how far the phase is, and the time left at its rate so far. */
    public static String howFar(long done, long total, long elapsedNanos) {
        long bounded = Math.max(0, Math.min(done, total));
        double percent = total <= 0 ? 100.0 : bounded * 100.0 / total;
        String left = bounded == 0 ? "unknown" : Math.round((total - bounded) * (elapsedNanos / 1e9) / bounded)
            + " s";
        return String.format(Locale.ROOT, "%d of %d (%.0f%%), about %s left", bounded, total, percent, left);
    }

    private synchronized void print() {
        if (phase == null) {
            return;
        }
        long now = System.nanoTime();
        double seconds = Math.max(1, now - lastNanos) / 1e9;
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%s %s] t=%5.1fs", label, phase,
            (now - phaseStartNanos) / 1e9));
        if (load != null) {
            long sent = load.okCount();
            double perSecond = (sent - lastSent) / seconds;
            line.append(String.format(Locale.ROOT, " sent/s=%8.0f MB/s=%6.1f p99=%8.2fms ok=%d failed=%d", perSecond,
                perSecond * messageBytes / MIB, load.intervalP99Micros() / 1e3, sent, load.errorCount()));
            lastSent = sent;
        }
        if (tracker != null) {
            long delivered = tracker.uniqueDeliveries();
            line.append(String.format(Locale.ROOT, " | received/s=%8.0f received=%d dup=%d",
                (delivered - lastDelivered) / seconds, delivered, tracker.duplicateDeliveries()));
            lastDelivered = delivered;
        }
        if (load != null) {
            line.append(" | ").append(howFar(load.okCount() + load.errorCount(), load.count(), now - phaseStartNanos));
        } else if (tracker != null) {
            line.append(" | ").append(howFar(tracker.uniqueDeliveries() - drainStartDelivered,
                tracker.acknowledgedCount() - drainStartDelivered, now - phaseStartNanos));
        }
        lastNanos = now;
        System.out.println(line);
    }
}
