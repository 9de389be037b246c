package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.util.Map;

/**
 * Command-line options of {@link RouteQueryBench}, as {@code --name value} pairs.
 *
 * @param namesrvAddr        the NameServer to load, host:port
 * @param topic              the topic whose route every request asks for
 * @param concurrency        requests in flight at once
 * @param warmupSeconds      load sent before measuring (JIT, connection, caches), not counted
 * @param durationSeconds    measured load time; ignored when {@code requestCount} is set
 * @param requestCount       measured request count, 0 = run for {@code durationSeconds}
 * @param requestTimeoutMs   per-request timeout; a timeout counts as an error
 * @param registerBroker     when set, first register a broker holding {@code topic} under this broker name, so
 *                           that every NameServer benchmarked holds the same route
 * @param label              a name for the run in the output (e.g. "apache", "vrmq")
 */
record BenchOptions(String namesrvAddr, String topic, int concurrency, int warmupSeconds, int durationSeconds,
                    long requestCount, long requestTimeoutMs, String registerBroker, String label) {

    static final String USAGE = """
        usage: RouteQueryBench --namesrv host:port [--topic BenchTopic] [--concurrency 64]
                               [--warmup-seconds 5] [--duration-seconds 20 | --count N] [--timeout-ms 3000]
                               [--register broker-name] [--label name]""";

    BenchOptions {
        require(namesrvAddr != null && !namesrvAddr.isBlank(), "--namesrv is required");
        require(concurrency > 0, "--concurrency must be > 0, was " + concurrency);
        require(warmupSeconds >= 0, "--warmup-seconds must be >= 0, was " + warmupSeconds);
        require(durationSeconds > 0 || requestCount > 0, "--duration-seconds or --count must be > 0");
        require(requestTimeoutMs > 0, "--timeout-ms must be > 0, was " + requestTimeoutMs);
    }

    static BenchOptions parse(String[] args) {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        return new BenchOptions(
            values.get("namesrv"),
            values.getOrDefault("topic", "BenchTopic"),
            Integer.parseInt(values.getOrDefault("concurrency", "64")),
            Integer.parseInt(values.getOrDefault("warmup-seconds", "5")),
            Integer.parseInt(values.getOrDefault("duration-seconds", "20")),
            Long.parseLong(values.getOrDefault("count", "0")),
            Long.parseLong(values.getOrDefault("timeout-ms", "3000")),
            values.get("register"),
            values.getOrDefault("label", values.get("namesrv")));
    }

    private static void require(boolean condition, String message) {
        CommandLine.require(condition, message, USAGE);
    }
}
