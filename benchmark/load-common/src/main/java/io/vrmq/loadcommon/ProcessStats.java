package io.vrmq.loadcommon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and memory of a local process (a broker under load, or this JVM) from Linux's /proc. Reads fail soft: a
 * process that is gone, or a system without /proc, gives -1 rather than stopping the benchmark.
 */
public final class ProcessStats {

    /** USER_HZ, the unit of utime and stime in /proc/<pid>/stat: 100 on every Linux architecture Java runs on. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    /** Fields after the ")" that closes the command name: field 3 (state) is index 0, so utime (14) is 11. */
    private static final int UTIME_INDEX = 11;
    private static final int STIME_INDEX = 12;

    private ProcessStats() {
    }

    /** User + system CPU time the process used so far in ms (10 ms resolution), or -1. */
    public static long cpuMillis(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[UTIME_INDEX]) + Long.parseLong(fields[STIME_INDEX]);
            return ticks * 1_000 / CLOCK_TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * A size line of /proc/<pid>/status in KiB, or -1: {@code VmHWM} (peak resident set), {@code VmRSS} (resident
     * now), {@code RssAnon} (the anonymous part of it: heap, stacks, direct buffers; not mapped files).
     */
    public static long statusKib(String pid, String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.substring(key.length() + 1).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
