package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * Command-line options of {@link MessageLoadBench}, as {@code --name value} pairs.
 *
 * @param namesrvAddr      the NameServer the official client starts from, host:port (loopback)
 * @param topic            the measured topic; created with {@code queues} queues before sending
 * @param label            a name for the run in the output (e.g. "apache", "vrmq")
 * @param count            messages to send in the measured phase
 * @param warmupCount      messages sent first to {@code <topic>_warmup} (same mode, not measured, not consumed)
 * @param size             body size in bytes, at least {@link MessageLoadBench#HEADER_BYTES}
 * @param mode             {@code sync} (each thread waits for its send) or {@code async} (send callbacks)
 * @param threads          sending threads
 * @param window           async only: sends in flight at most, over all threads
 * @param rate             messages per second over all threads, 0 = as fast as the broker takes them
 * @param queues           the topic's queue count
 * @param consume          {@code none}; {@code concurrent}: a push consumer runs while sending (end-to-end latency
 *                         is meaningful); {@code after}: the consumer starts once every send is answered and
 *                         drains the backlog (consume throughput is meaningful, end-to-end latency is queue time)
 * @param consumeThreads   the push consumer's consume threads (the official client's default is 20)
 * @param maxSendSeconds   the send phase stops after this long even if {@code count} was not reached
 * @param drainSeconds     after sending, how long the consumer may take to receive every message at most
 * @param drainIdleSeconds ...and how long without any new message before the rest counts as lost
 * @param firstDeliverySeconds how long the consumer may take to its first message (start, rebalance, heartbeat);
 *                         above the official client's 30 s heartbeat interval, since its start can lose the heartbeat
 *                         that carries its subscription ({@link io.vrmq.loadcommon.DeliveryTracker}); --drain-seconds
 *                         and --drain-idle-seconds count from that first message
 * @param sendTimeoutMs    the producer's send timeout
 * @param watchPid         a local broker's process id: report its CPU time used per phase and its peak RSS from
 *                         /proc (0 = none)
 * @param replicaPids      other local brokers (a master's slaves), comma-separated: report their CPU time during the
 *                         send phase too ("" = none)
 * @param producers        producer instances (each its own client instance and connection); message {@code seq}
 *                         goes out through producer {@code seq % producers}
 * @param topicCount       measured topics: 1 = {@code topic} itself, more = {@code <topic>_0 .. <topic>_<n-1>}, each
 *                         with {@code queues} queues; message {@code seq} goes to topic {@code seq % topicCount}
 * @param createTopics     create the measured topics first (UPDATE_AND_CREATE_TOPIC); false: they exist already
 *                         (e.g. a pre-written topics.json), only wait for their routes
 * @param compressOverBytes the producers' compressMsgBodyOverHowmuch: larger bodies are zipped by the client (its
 *                         default 4096; raise it to send bodies as they are)
 * @param idleSeconds      with a consumer started before the sends: hold its pulls this long with nothing to read
 *                         and report the broker's CPU and anonymous memory over that time (0 = no idle phase)
 * @param accessKey        with {@code secretKey}: the producer and consumer sign every request with the official
 *                         AclClientRPCHook (ACL 2.0); "" = unsigned. TLS is the client's own switch: run the JVM with
 *                         {@code -Dtls.enable=true}
 * @param awaitGo          one part of a run split over several JVMs ({@link SplitMessageLoad}): once ready to send
 *                         the measured messages, print {@code READY}, wait for a line on stdin, and after the sends
 *                         print a {@code PART} line (the send phase's wall-clock bounds and latency histogram)
 */
record MessageLoadOptions(String namesrvAddr, String topic, String label, int count, int warmupCount, int size,
                          String mode, int threads, int window, int rate, int queues, String consume,
                          int consumeThreads, int maxSendSeconds, int drainSeconds, int drainIdleSeconds,
                          int firstDeliverySeconds, int sendTimeoutMs, long watchPid, String replicaPids, int producers, int topicCount,
                          boolean createTopics, int compressOverBytes, int idleSeconds, String accessKey,
                          String secretKey, boolean awaitGo) {

    /** The official producer's compressMsgBodyOverHowmuch default. */
    static final int DEFAULT_COMPRESS_OVER_BYTES = 4 * 1024;
    /** The official client's heartbeat interval (heartbeatBrokerInterval, 30 s) and then some. */
    static final int DEFAULT_FIRST_DELIVERY_SECONDS = 45;
    static final String USAGE = """
        usage: MessageLoadBench --namesrv host:port [--topic BenchTopic] [--label name] [--count 100000]
                                [--warmup-count 0] [--size 1024] [--mode sync|async] [--threads 8] [--window 512]
                                [--rate 0] [--queues 8] [--consume none|concurrent|after] [--consume-threads 20]
                                [--max-send-seconds 120] [--drain-seconds 60] [--drain-idle-seconds 15]
                                [--first-delivery-seconds 45] [--send-timeout-ms 3000] [--watch-pid broker-pid]
                                [--replica-pids pid,pid] [--producers 1] [--topic-count 1]
                                [--create-topics true|false] [--compress-over-bytes 4096] [--idle-seconds 0]
                                [--access-key ak --secret-key sk] [--await-go false]""";

    MessageLoadOptions {
        require(namesrvAddr != null && !namesrvAddr.isBlank(), "--namesrv is required");
        require(count > 0, "--count must be > 0, was " + count);
        require(warmupCount >= 0, "--warmup-count must be >= 0, was " + warmupCount);
        require(size >= MessageLoadBench.HEADER_BYTES, "--size must be >= " + MessageLoadBench.HEADER_BYTES);
        require(mode.equals("sync") || mode.equals("async"), "--mode must be sync or async, was " + mode);
        require(threads > 0, "--threads must be > 0, was " + threads);
        require(window > 0, "--window must be > 0, was " + window);
        require(rate >= 0, "--rate must be >= 0, was " + rate);
        require(queues > 0, "--queues must be > 0, was " + queues);
        require(consume.equals("none") || consume.equals("concurrent") || consume.equals("after"),
            "--consume must be none, concurrent or after, was " + consume);
        require(consumeThreads > 0, "--consume-threads must be > 0, was " + consumeThreads);
        require(maxSendSeconds > 0, "--max-send-seconds must be > 0, was " + maxSendSeconds);
        require(drainSeconds > 0 && drainIdleSeconds > 0, "--drain-seconds and --drain-idle-seconds must be > 0");
        require(firstDeliverySeconds > 0, "--first-delivery-seconds must be > 0, was " + firstDeliverySeconds);
        require(sendTimeoutMs > 0, "--send-timeout-ms must be > 0, was " + sendTimeoutMs);
        require(producers > 0, "--producers must be > 0, was " + producers);
        require(topicCount > 0, "--topic-count must be > 0, was " + topicCount);
        require(compressOverBytes > 0, "--compress-over-bytes must be > 0, was " + compressOverBytes);
        require(idleSeconds >= 0, "--idle-seconds must be >= 0, was " + idleSeconds);
        require(idleSeconds == 0 || consume.equals("concurrent"), "--idle-seconds needs --consume concurrent");
        require(accessKey.isEmpty() == secretKey.isEmpty(), "--access-key and --secret-key go together");
    }

    static MessageLoadOptions parse(String[] args) {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        String namesrvAddr = values.get("namesrv");
        MessageLoadOptions options = new MessageLoadOptions(
            namesrvAddr,
            values.getOrDefault("topic", "BenchTopic"),
            values.getOrDefault("label", namesrvAddr == null ? "" : namesrvAddr),
            integer(values, "count", 100_000),
            integer(values, "warmup-count", 0),
            integer(values, "size", 1024),
            values.getOrDefault("mode", "sync").toLowerCase(Locale.ROOT),
            integer(values, "threads", 8),
            integer(values, "window", 512),
            integer(values, "rate", 0),
            integer(values, "queues", 8),
            values.getOrDefault("consume", "none").toLowerCase(Locale.ROOT),
            integer(values, "consume-threads", 20),
            integer(values, "max-send-seconds", 120),
            integer(values, "drain-seconds", 60),
            integer(values, "drain-idle-seconds", 15),
            integer(values, "first-delivery-seconds", DEFAULT_FIRST_DELIVERY_SECONDS),
            integer(values, "send-timeout-ms", 3_000),
            Long.parseLong(values.getOrDefault("watch-pid", "0")),
            values.getOrDefault("replica-pids", ""),
            integer(values, "producers", 1),
            integer(values, "topic-count", 1),
            Boolean.parseBoolean(values.getOrDefault("create-topics", "true")),
            integer(values, "compress-over-bytes", DEFAULT_COMPRESS_OVER_BYTES),
            integer(values, "idle-seconds", 0),
            values.getOrDefault("access-key", ""),
            values.getOrDefault("secret-key", ""),
            Boolean.parseBoolean(values.getOrDefault("await-go", "false")));
        values.keySet().removeAll(List.of("namesrv", "topic", "label", "count", "warmup-count", "size", "mode",
            "threads", "window", "rate", "queues", "consume", "consume-threads", "max-send-seconds", "drain-seconds",
            "drain-idle-seconds", "first-delivery-seconds", "send-timeout-ms", "watch-pid", "replica-pids", "producers", "topic-count", "create-topics",
            "compress-over-bytes", "idle-seconds", "access-key", "secret-key", "await-go"));
        require(values.isEmpty(), "unknown option(s) " + values.keySet());
        return options;
    }

    /** The official signing hook, or null when the run is unsigned. */
    RPCHook rpcHook() {
        return accessKey.isEmpty() ? null : new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    /** The measured topics' names, in the order sends go round them. */
    List<String> topics() {
        if (topicCount == 1) {
            return List.of(topic);
        }
        List<String> names = new ArrayList<>(topicCount);
        for (int i = 0; i < topicCount; i++) {
            names.add(topic + "_" + i);
        }
        return names;
    }

    boolean async() {
        return mode.equals("async");
    }

    boolean consumes() {
        return !consume.equals("none");
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
