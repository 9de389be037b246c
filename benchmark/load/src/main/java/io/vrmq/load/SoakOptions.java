package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.util.Map;

/**
 * Command-line options of {@link SoakBench}, as {@code --name value} pairs.
 *
 * @param namesrvAddr the NameServer the official client starts from, host:port (loopback)
 * @param topic       the soak's topic; created with {@code queues} queues first
 * @param label       a name for the run in the output
 * @param rate        messages per second, sent asynchronously at a steady pace
 * @param minutes     how long to send
 * @param size        body size in bytes, at least {@link MessageLoadBench#HEADER_BYTES}
 * @param queues      the topic's queue count
 * @param window      sends in flight at most: past it the pacer waits (the minute's line shows it fell behind)
 * @param drainSeconds after sending, how long the consumer may take to receive the rest
 * @param watchPid    the broker's process id: its CPU time and memory each minute from /proc (0 = none)
 */
record SoakOptions(String namesrvAddr, String topic, String label, int rate, int minutes, int size, int queues,
                   int window, int drainSeconds, long watchPid) {

    static final String USAGE = """
        usage: SoakBench --namesrv host:port [--topic SoakTopic] [--label name] [--rate 2000] [--minutes 30]
                         [--size 1024] [--queues 8] [--window 1024] [--drain-seconds 60] [--watch-pid broker-pid]""";

    SoakOptions {
        require(namesrvAddr != null && !namesrvAddr.isBlank(), "--namesrv is required");
        require(rate > 0, "--rate must be > 0, was " + rate);
        require(minutes > 0, "--minutes must be > 0, was " + minutes);
        require(size >= MessageLoadBench.HEADER_BYTES, "--size must be >= " + MessageLoadBench.HEADER_BYTES);
        require(queues > 0, "--queues must be > 0, was " + queues);
        require(window > 0, "--window must be > 0, was " + window);
        require(drainSeconds > 0, "--drain-seconds must be > 0, was " + drainSeconds);
        require((long) rate * minutes * 60 <= Integer.MAX_VALUE / 2, "--rate x --minutes is too many messages");
    }

    static SoakOptions parse(String[] args) {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        return new SoakOptions(values.get("namesrv"), values.getOrDefault("topic", "SoakTopic"),
            values.getOrDefault("label", "soak"), integer(values, "rate", 2000), integer(values, "minutes", 30),
            integer(values, "size", 1024), integer(values, "queues", 8), integer(values, "window", 1024),
            integer(values, "drain-seconds", 60), Long.parseLong(values.getOrDefault("watch-pid", "0")));
    }

    /** Messages the soak sends in all. */
    int count() {
        return rate * minutes * 60;
    }

    private static int integer(Map<String, String> values, String name, int fallback) {
        return Integer.parseInt(values.getOrDefault(name, Integer.toString(fallback)));
    }

    private static void require(boolean condition, String message) {
        CommandLine.require(condition, message, USAGE);
    }
}
