package io.vrmq.broker.grpc;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings of the broker's gRPC endpoint (RocketMQ 5's {@code apache.rocketmq.v2.MessagingService}), under the key
 * names of Apache RocketMQ's proxy where it has one, with its defaults (keys in {@code broker-defaults.json}).
 *
 * @param grpcListenPort             where the endpoint listens (Apache's proxy: 8081); -1 turns it off, 0 picks a
 *                                   free port (tests)
 * @param grpcMaxInboundMessageSize  largest request message in bytes (the proxy's 130 MiB: clients send bodies of
 *                                   up to maxMessageSize, and a batch of them)
 * @param grpcMaxConcurrentStreams   HTTP/2 streams one connection may hold open at once; every Telemetry stream and
 *                                   every long-polling receive holds one (HTTP/2's usual 100 is too few)
 * @param defaultInvisibleTimeMills  invisible time of a receive that names none (push consumers with auto_renew)
 * @param minLongPollingTimeoutMs    a receive's long poll is at least this long (the proxy's
 *                                   grpcClientConsumerMinLongPollingTimeoutMillis); a receive whose deadline leaves
 *                                   less is refused with ILLEGAL_POLLING_TIME
 * @param maxLongPollingTimeoutMs    and at most this long (grpcClientConsumerMaxLongPollingTimeoutMillis)
 * @param receiveBatchSize           receive_batch_size told to push consumers, and the cap of one receive (the
 *                                   broker pops at most 32 messages at a time)
 * @param enableProxyAutoRenew       renew the invisible time of what push consumers receive with auto_renew
 * @param renewAheadTimeMillis       renew a message whose invisible time ends within this
 * @param renewSchedulePeriodMillis  how often renewals are looked for
 * @param renewMaxTimeMillis         renew a message for at most this long after it was received
 * @param rstFloodMaxPerWindow       RST_STREAM frames one connection may send per window before the connection is
 *                                   closed (HTTP/2 rapid reset, CVE-2023-44487); clients cancel every call that
 *                                   misses its deadline, so Vert.x's 200 closes a busy SDK's connection
 * @param rstFloodWindowSeconds      that window
 */
public record GrpcConfig(int grpcListenPort, int grpcMaxInboundMessageSize, int grpcMaxConcurrentStreams,
                         long defaultInvisibleTimeMills, long minLongPollingTimeoutMs, long maxLongPollingTimeoutMs,
                         int receiveBatchSize, boolean enableProxyAutoRenew, long renewAheadTimeMillis,
                         long renewSchedulePeriodMillis, long renewMaxTimeMillis, int rstFloodMaxPerWindow,
                         int rstFloodWindowSeconds) {
    public static final int DISABLED_PORT = -1;
    /** POP_MESSAGE's own limit on maxMsgNums. */
    public static final int MAX_RECEIVE_BATCH = 32;
    /** Below this the gRPC frame could not carry even a small message with its properties. */
    private static final int MIN_INBOUND_MESSAGE_BYTES = 64 * 1024;

    public GrpcConfig {
        require(grpcListenPort >= DISABLED_PORT && grpcListenPort <= 65535, "grpcListenPort (-1 disables)",
            grpcListenPort);
        require(grpcMaxInboundMessageSize >= MIN_INBOUND_MESSAGE_BYTES,
            "grpcMaxInboundMessageSize (at least " + MIN_INBOUND_MESSAGE_BYTES + ")", grpcMaxInboundMessageSize);
        require(grpcMaxConcurrentStreams > 0, "grpcMaxConcurrentStreams", grpcMaxConcurrentStreams);
        require(defaultInvisibleTimeMills > 0, "defaultInvisibleTimeMills", defaultInvisibleTimeMills);
        require(minLongPollingTimeoutMs > 0, "grpcClientConsumerMinLongPollingTimeoutMillis",
            minLongPollingTimeoutMs);
        require(maxLongPollingTimeoutMs >= minLongPollingTimeoutMs,
            "grpcClientConsumerMaxLongPollingTimeoutMillis (at least the minimum " + minLongPollingTimeoutMs + ")",
            maxLongPollingTimeoutMs);
        require(receiveBatchSize > 0 && receiveBatchSize <= MAX_RECEIVE_BATCH,
            "grpcClientConsumerLongPollingBatchSize (1.." + MAX_RECEIVE_BATCH + ")", receiveBatchSize);
        require(renewAheadTimeMillis > 0 && renewAheadTimeMillis < defaultInvisibleTimeMills,
            "renewAheadTimeMillis (below defaultInvisibleTimeMills " + defaultInvisibleTimeMills + ")",
            renewAheadTimeMillis);
        require(renewSchedulePeriodMillis > 0 && renewSchedulePeriodMillis < renewAheadTimeMillis,
            "renewSchedulePeriodMillis (below renewAheadTimeMillis " + renewAheadTimeMillis + ")",
            renewSchedulePeriodMillis);
        require(renewMaxTimeMillis > 0, "renewMaxTimeMillis", renewMaxTimeMillis);
        require(rstFloodMaxPerWindow > 0, "grpcRstFloodMaxPerWindow", rstFloodMaxPerWindow);
        require(rstFloodWindowSeconds > 0, "grpcRstFloodWindowSeconds", rstFloodWindowSeconds);
    }

    public static GrpcConfig from(JsonObject json) {
        return new GrpcConfig(json.getInteger("grpcListenPort", 8081),
            json.getInteger("grpcMaxInboundMessageSize", 130 * 1024 * 1024),
            json.getInteger("grpcMaxConcurrentStreams", 10_000),
            json.getLong("defaultInvisibleTimeMills", 60_000L),
            json.getLong("grpcClientConsumerMinLongPollingTimeoutMillis", 5_000L),
            json.getLong("grpcClientConsumerMaxLongPollingTimeoutMillis", 20_000L),
            json.getInteger("grpcClientConsumerLongPollingBatchSize", 32),
            json.getBoolean("enableProxyAutoRenew", true),
            json.getLong("renewAheadTimeMillis", 10_000L),
            json.getLong("renewSchedulePeriodMillis", 5_000L),
            json.getLong("renewMaxTimeMillis", 3 * 3_600_000L),
            json.getInteger("grpcRstFloodMaxPerWindow", 10_000),
            json.getInteger("grpcRstFloodWindowSeconds", 30));
    }

    /** Every setting under its key, for the broker's config views (GET_BROKER_CONFIG, the admin API). */
    public Map<String, Object> values() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("grpcListenPort", grpcListenPort);
        values.put("grpcMaxInboundMessageSize", grpcMaxInboundMessageSize);
        values.put("grpcMaxConcurrentStreams", grpcMaxConcurrentStreams);
        values.put("defaultInvisibleTimeMills", defaultInvisibleTimeMills);
        values.put("grpcClientConsumerMinLongPollingTimeoutMillis", minLongPollingTimeoutMs);
        values.put("grpcClientConsumerMaxLongPollingTimeoutMillis", maxLongPollingTimeoutMs);
        values.put("grpcClientConsumerLongPollingBatchSize", receiveBatchSize);
        values.put("enableProxyAutoRenew", enableProxyAutoRenew);
        values.put("renewAheadTimeMillis", renewAheadTimeMillis);
        values.put("renewSchedulePeriodMillis", renewSchedulePeriodMillis);
        values.put("renewMaxTimeMillis", renewMaxTimeMillis);
        values.put("grpcRstFloodMaxPerWindow", rstFloodMaxPerWindow);
        values.put("grpcRstFloodWindowSeconds", rstFloodWindowSeconds);
        return values;
    }

    public boolean isEnabled() {
        return grpcListenPort != DISABLED_PORT;
    }

    private static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
