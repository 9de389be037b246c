package io.vrmq.loadcommon;

/** What {@link ProgressLine} reads of a running send phase; called from its progress thread, so thread-safe. */
public interface SendProgress {

    /** Messages the phase sends. */
    int count();

    /** Sends answered with success so far. */
    long okCount();

    /** Sends failed so far. */
    long errorCount();

    /** p99 send latency since the last call, µs. */
    long intervalP99Micros();
}
