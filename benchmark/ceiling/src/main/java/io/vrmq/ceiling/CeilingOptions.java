package io.vrmq.ceiling;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The ceiling's command line: {@code --host 127.0.0.1 --port 10911 --default-queues 8
 * --max-messages-per-queue 1000000 --max-held-pulls 100000 --max-messages-per-pull 32 --chunk-mib 64
 * --max-stored-mib 1024 --use-epoll-native-selector false}. The stored records are off-heap: give the JVM {@code -XX:MaxDirectMemorySize} above
 * {@code max-stored-mib}.
 *
 * @param maxMessagesPerQueue records kept per queue (older ones are dropped: the heap stays bounded)
 * @param maxHeldPulls        long-polling pulls waiting at once; one more is answered at once
 * @param maxMessagesPerPull  records in one pull answer (RocketMQ's broker caps a pull at 32 by default too)
 * @param chunkMib            size of one off-heap chunk of records (a record must fit one)
 * @param maxStoredMib        off-heap bytes for records in all; the oldest chunk is reused beyond it
 * @param nativeTransport     Netty's native epoll transport or NIO (as the broker's {@code useEpollNativeSelector},
 *                            off by default): the ceiling runs on the transport of the broker it is compared with
 */
record CeilingOptions(String host, int port, int defaultQueues, int maxMessagesPerQueue, int maxHeldPulls,
                      int maxMessagesPerPull, int chunkMib, int maxStoredMib, boolean nativeTransport) {

    static CeilingOptions parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (int index = 0; index < args.length; index++) {
            if (!args[index].startsWith("--") || index + 1 == args.length) {
                throw new IllegalArgumentException("usage: --name value ...; bad argument: " + args[index]);
            }
            values.put(args[index].substring(2), args[++index]);
        }
        CeilingOptions options = new CeilingOptions(
            values.getOrDefault("host", "127.0.0.1"),
            positive(values, "port", 10911),
            positive(values, "default-queues", 8),
            positive(values, "max-messages-per-queue", 1_000_000),
            positive(values, "max-held-pulls", 100_000),
            positive(values, "max-messages-per-pull", 32),
            positive(values, "chunk-mib", 64),
            positive(values, "max-stored-mib", 1024),
            flag(values, "use-epoll-native-selector", false));
        if (options.maxStoredMib() < options.chunkMib()) {
            throw new IllegalArgumentException("--max-stored-mib must be at least --chunk-mib");
        }
        values.keySet().removeAll(Set.of("host", "port", "default-queues", "max-messages-per-queue",
            "max-held-pulls", "max-messages-per-pull", "chunk-mib", "max-stored-mib",
            "use-epoll-native-selector"));
        if (!values.isEmpty()) {
            throw new IllegalArgumentException("unknown options: " + values.keySet());
        }
        return options;
    }

    private static boolean flag(Map<String, String> values, String name, boolean fallback) {
        String text = values.get(name);
        if (text == null) {
            return fallback;
        }
        if (!text.equals("true") && !text.equals("false")) {
            throw new IllegalArgumentException("--" + name + " must be true or false: " + text);
        }
        return Boolean.parseBoolean(text);
    }

    private static int positive(Map<String, String> values, String name, int fallback) {
        String text = values.get(name);
        int value = text == null ? fallback : Integer.parseInt(text);
        if (value <= 0 && !(name.equals("port") && value == 0)) {
            throw new IllegalArgumentException("--" + name + " must be positive: " + text);
        }
        return value;
    }
}
