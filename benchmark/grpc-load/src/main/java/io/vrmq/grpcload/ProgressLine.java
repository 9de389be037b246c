package io.vrmq.grpcload;

import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The once-a-second progress line of {@link GrpcLoadBench}: what runs (label and phase), how far it is (messages done
 * of the phase's total, in per cent) and how long is left at the last second's pace, plus over the last second the
 * messages sent per second, MB/s and the p99 send latency, and with receivers the messages received per second.
 * Owns its daemon thread. The main thread switches phases ({@link #sending}, {@link #draining}); the progress thread
 * prints.
 */
final class ProgressLine {

    private static final long INTERVAL_MS = 1_000;
    private static final double MIB = 1024.0 * 1024.0;

    private final String label;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "bench-progress");
        thread.setDaemon(true);
        return thread;
    });
    private String phase;
    private GrpcSendLoad load;
    private DeliveryTracker tracker;
    private int messageBytes;
    private long phaseStartNanos;
    private long lastNanos;
    private long lastSent;
    private long lastDelivered;

    ProgressLine(String label) {
        this.label = label;
        timer.scheduleAtFixedRate(this::print, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** A send phase starts; {@code tracker} is null when no receivers run alongside. */
    synchronized void sending(String phase, GrpcSendLoad load, DeliveryTracker tracker, int messageBytes) {
        start(phase, load, tracker, messageBytes);
    }

    /** Sending is over; only deliveries move now, towards every message that was sent successfully. */
    synchronized void draining(DeliveryTracker tracker) {
        start("drain", null, tracker, messageBytes);
    }

    void stop() {
        timer.shutdownNow();
    }

    private void start(String phase, GrpcSendLoad load, DeliveryTracker tracker, int messageBytes) {
        this.phase = phase;
        this.load = load;
        this.tracker = tracker;
        this.messageBytes = messageBytes;
        this.phaseStartNanos = System.nanoTime();
        this.lastNanos = phaseStartNanos;
        this.lastSent = 0;
        this.lastDelivered = tracker == null ? 0 : tracker.uniqueDeliveries();
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
            line.append(howFar(sent + load.errorCount(), load.count(), perSecond));
            line.append(String.format(Locale.ROOT, " sent/s=%8.0f MB/s=%6.1f p99=%8.2fms ok=%d failed=%d", perSecond,
                perSecond * messageBytes / MIB, load.intervalP99Micros() / 1e3, sent, load.errorCount()));
            lastSent = sent;
        }
        if (tracker != null) {
            long delivered = tracker.uniqueDeliveries();
            double perSecond = (delivered - lastDelivered) / seconds;
            if (load == null) {
                line.append(howFar(delivered, tracker.acknowledgedCount(), perSecond));
            }
            line.append(String.format(Locale.ROOT, " | received/s=%8.0f received=%d dup=%d", perSecond, delivered,
                tracker.duplicateDeliveries()));
            lastDelivered = delivered;
        }
        lastNanos = now;
        System.out.println(line);
    }

    /** " 12000/100000 (12%) left ~8s": how far, and how long the rest takes at {@code perSecond}. */
    private static String howFar(long done, long total, double perSecond) {
        long remaining = Math.max(0, total - done);
        String left = remaining == 0 ? "0s" : perSecond < 1 ? "?" : String.format(Locale.ROOT, "%.0fs",
            remaining / perSecond);
        return String.format(Locale.ROOT, " %d/%d (%.0f%%) left ~%s", done, total,
            total == 0 ? 100.0 : 100.0 * done / total, left);
    }
}
