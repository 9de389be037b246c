package io.vrmq.broker.trace;

import io.vertx.core.json.JsonObject;

/**
 * Message trace settings (RocketMQ's keys and defaults, in {@code broker-defaults.json}).
 *
 * @param traceTopicEnable  create the trace topic at start (one queue), as RocketMQ does; off, the clients' trace
 *                          producers create {@code RMQ_SYS_TRACE_TOPIC} through auto-creation when that is on
 * @param msgTraceTopicName the trace topic the broker creates and the admin API reads by default
 */
public record TraceConfig(boolean traceTopicEnable, String msgTraceTopicName) {
    public static final String DEFAULT_TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";

    public TraceConfig {
        if (msgTraceTopicName == null || msgTraceTopicName.isBlank()) {
            throw new IllegalArgumentException("invalid msgTraceTopicName: " + msgTraceTopicName);
        }
    }

    public static TraceConfig from(JsonObject json) {
        return new TraceConfig(json.getBoolean("traceTopicEnable", false),
            json.getString("msgTraceTopicName", DEFAULT_TRACE_TOPIC));
    }
}
