package io.vrmq.grpcload;

import io.vrmq.loadcommon.CommandLine;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Command-line options of {@link GrpcLoadBench}, as {@code --name value} pairs.
 *
 * @param endpoints          the gRPC endpoint the SDK dials, host:port (Apache's proxy, or our broker's grpcListenPort)
 * @param topic              the measured topic; must exist with its queues (and {@code <topic>_warmup} with
 *                           --warmup-count)
 * @param group              the consumer group (must exist: Apache's proxy refuses unknown groups); needed with
 *                           --consume
 * @param label              a name for the run in the output (e.g. "apache", "vrmq")
 * @param count              messages to send in the measured phase
 * @param warmupCount        messages sent first to {@code <topic>_warmup} the measured way (not measured)
 * @param size               body size in bytes, at least {@link GrpcLoadBench#HEADER_BYTES}
 * @param mode               {@code sync} (each thread waits for its send) or {@code async} ({@code sendAsync})
 * @param threads            sending threads
 * @param window             async only: sends in flight at most, over all threads
 * @param rate               messages per second over all threads, 0 = as fast as the server takes them
 * @param consume            {@code none}; {@code concurrent}: SimpleConsumer receivers run while sending (end-to-end
 *                           latency is meaningful); {@code after}: they start once every send is answered and drain
 *                           the backlog (receive throughput is meaningful)
 * @param receivers          receiving threads sharing one SimpleConsumer; each receives a batch, acks every message
 *                           of it (ackAsync, all in flight at once), waits for the acks, receives again
 * @param batch              messages per receive at most (Apache's proxy caps a receive at 32)
 * @param invisibleSeconds   the invisible duration of each receive (Apache's proxy accepts 10 s .. 12 h)
 * @param awaitSeconds       the SimpleConsumer's await duration: how long a receive long-polls on an empty topic
 *                           (Apache's proxy accepts 5 s .. 20 s)
 * @param maxSendSeconds     the send phase stops after this long even if {@code count} was not reached
 * @param drainSeconds       after sending, how long the receivers may take to get every message at most
 * @param drainIdleSeconds   ...and how long without any new message before the rest counts as lost
 * @param requestTimeoutMs   the SDK's request timeout (send, ack; a receive's deadline is the await plus this)
 * @param watchPid           a local broker's process id: its CPU time per phase and its RSS from /proc (0 = none)
 * @param proxyPid           a local proxy's process id (Apache's side), reported like the broker (0 = none)
 */
record GrpcLoadOptions(String endpoints, String topic, String group, String label, int count, int warmupCount,
                       int size, String mode, int threads, int window, int rate, String consume, int receivers,
                       int batch, int invisibleSeconds, int awaitSeconds, int maxSendSeconds, int drainSeconds,
                       int drainIdleSeconds, int requestTimeoutMs, long watchPid, long proxyPid) {

    static final String USAGE = """
        usage: GrpcLoadBench --endpoints host:port [--topic GrpcBench] [--group GID_GrpcBench] [--label name]
                             [--count 100000] [--warmup-count 0] [--size 1024] [--mode sync|async] [--threads 8]
                             [--window 512] [--rate 0] [--consume none|concurrent|after] [--receivers 4]
                             [--batch 32] [--invisible-seconds 30] [--await-seconds 5] [--max-send-seconds 120]
                             [--drain-seconds 60] [--drain-idle-seconds 15] [--request-timeout-ms 3000]
                             [--watch-pid broker-pid] [--proxy-pid proxy-pid]""";

    GrpcLoadOptions {
        require(endpoints != null && !endpoints.isBlank(), "--endpoints is required");
        require(count > 0, "--count must be > 0, was " + count);
        require(warmupCount >= 0, "--warmup-count must be >= 0, was " + warmupCount);
        require(size >= GrpcLoadBench.HEADER_BYTES, "--size must be >= " + GrpcLoadBench.HEADER_BYTES);
        require(mode.equals("sync") || mode.equals("async"), "--mode must be sync or async, was " + mode);
        require(threads > 0, "--threads must be > 0, was " + threads);
        require(window > 0, "--window must be > 0, was " + window);
        require(rate >= 0, "--rate must be >= 0, was " + rate);
        require(consume.equals("none") || consume.equals("concurrent") || consume.equals("after"),
            "--consume must be none, concurrent or after, was " + consume);
        require(receivers > 0, "--receivers must be > 0, was " + receivers);
        require(batch > 0, "--batch must be > 0, was " + batch);
        require(invisibleSeconds > 0, "--invisible-seconds must be > 0, was " + invisibleSeconds);
        require(awaitSeconds > 0, "--await-seconds must be > 0, was " + awaitSeconds);
        require(maxSendSeconds > 0, "--max-send-seconds must be > 0, was " + maxSendSeconds);
        require(drainSeconds > 0 && drainIdleSeconds > 0, "--drain-seconds and --drain-idle-seconds must be > 0");
        require(requestTimeoutMs > 0, "--request-timeout-ms must be > 0, was " + requestTimeoutMs);
    }

    static GrpcLoadOptions parse(String[] args) {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        String endpoints = values.get("endpoints");
        String topic = values.getOrDefault("topic", "GrpcBench");
        GrpcLoadOptions options = new GrpcLoadOptions(
            endpoints,
            topic,
            values.getOrDefault("group", "GID_" + topic),
            values.getOrDefault("label", endpoints == null ? "" : endpoints),
            integer(values, "count", 100_000),
            integer(values, "warmup-count", 0),
            integer(values, "size", 1024),
            values.getOrDefault("mode", "sync").toLowerCase(Locale.ROOT),
            integer(values, "threads", 8),
            integer(values, "window", 512),
            integer(values, "rate", 0),
            values.getOrDefault("consume", "none").toLowerCase(Locale.ROOT),
            integer(values, "receivers", 4),
            integer(values, "batch", 32),
            integer(values, "invisible-seconds", 30),
            integer(values, "await-seconds", 5),
            integer(values, "max-send-seconds", 120),
            integer(values, "drain-seconds", 60),
            integer(values, "drain-idle-seconds", 15),
            integer(values, "request-timeout-ms", 3_000),
            Long.parseLong(values.getOrDefault("watch-pid", "0")),
            Long.parseLong(values.getOrDefault("proxy-pid", "0")));
        values.keySet().removeAll(List.of("endpoints", "topic", "group", "label", "count", "warmup-count", "size",
            "mode", "threads", "window", "rate", "consume", "receivers", "batch", "invisible-seconds",
            "await-seconds", "max-send-seconds", "drain-seconds", "drain-idle-seconds", "request-timeout-ms",
            "watch-pid", "proxy-pid"));
        require(values.isEmpty(), "unknown option(s) " + values.keySet());
        return options;
    }

    boolean async() {
        return mode.equals("async");
    }

    private static int integer(Map<String, String> values, String name, int defaultValue) {
        String value = values.get(name);
        try {
            return value == null ? defaultValue : Integer.parseInt(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be an integer, was '" + value + "'\n" + USAGE);
        }
    }

    private static void require(boolean condition, String message) {
        CommandLine.require(condition, message, USAGE);
    }
}
