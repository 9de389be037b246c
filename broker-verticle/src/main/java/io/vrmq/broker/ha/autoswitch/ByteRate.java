package io.vrmq.broker.ha.autoswitch;

/**
 * Bytes moved in the last whole second (RocketMQ's FlowMonitor.getTransferredByteInSecond, for haStatus). Written on
 * one context; {@link #bytesPerSecond()} from any thread.
 */
final class ByteRate {
    private static final long WINDOW_MS = 1_000;

    private long windowStartMs;
    private long bytesInWindow;
    private volatile long bytesPerSecond;

    ByteRate(long nowMs) {
        this.windowStartMs = nowMs;
    }

    void add(long bytes, long nowMs) {
        roll(nowMs);
        bytesInWindow += bytes;
    }

    /** Closes the window once a second has passed; call on every tick so an idle link reports 0. */
    void roll(long nowMs) {
        long elapsedMs = nowMs - windowStartMs;
        if (elapsedMs >= WINDOW_MS) {
            bytesPerSecond = elapsedMs >= 2 * WINDOW_MS ? 0 : bytesInWindow;
            windowStartMs = nowMs;
            bytesInWindow = 0;
        }
    }

    long bytesPerSecond() {
        return bytesPerSecond;
    }
}
