package io.vrmq.grpcload;

import io.vrmq.loadcommon.ProcessStats;

/**
 * A local server process whose CPU time the tool splits by phase (start, end of the sends, end of the drain) and
 * whose memory it reads at the end, from /proc. A pid of 0 means none: every figure is then -1. Main thread only.
 */
final class WatchedProcess {

    private final String pid;
    private long cpuStartMillis = -1;
    private long cpuAfterSendMillis = -1;
    private long cpuEndMillis = -1;

    WatchedProcess(long pid) {
        this.pid = pid > 0 ? Long.toString(pid) : null;
    }

    void markStart() {
        cpuStartMillis = cpu();
    }

    void markSendEnd() {
        cpuAfterSendMillis = cpu();
    }

    void markDrainEnd() {
        cpuEndMillis = cpu();
    }

    /** CPU time (user + system) during the sends, ms, or -1. */
    long cpuSendMillis() {
        return pid == null ? -1 : cpuAfterSendMillis - cpuStartMillis;
    }

    /** CPU time from the end of the sends to the end of the drain, ms, or -1 (also without receivers). */
    long cpuDrainMillis(boolean hasDrained) {
        return pid == null || !hasDrained ? -1 : cpuEndMillis - cpuAfterSendMillis;
    }

    /** VmHWM (peak resident set) now, KiB, or -1. */
    long peakRssKib() {
        return pid == null ? -1 : ProcessStats.statusKib(pid, "VmHWM");
    }

    /** RssAnon (heap and other anonymous memory; not mapped files) now, KiB, or -1. */
    long rssAnonKib() {
        return pid == null ? -1 : ProcessStats.statusKib(pid, "RssAnon");
    }

    private long cpu() {
        return pid == null ? -1 : ProcessStats.cpuMillis(pid);
    }
}
