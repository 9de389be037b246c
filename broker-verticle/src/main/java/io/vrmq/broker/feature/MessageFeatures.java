package io.vrmq.broker.feature;

import io.vertx.core.json.JsonObject;
import io.vrmq.broker.filter.FilterConfig;
import io.vrmq.broker.filter.SubscriptionFilters;
import io.vrmq.broker.recall.RecallConfig;
import io.vrmq.broker.reply.ReplyConfig;
import io.vrmq.broker.reply.ReplyTopics;
import io.vrmq.broker.timer.TimerFlowControl;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.broker.trace.TraceConfig;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;

/**
 * The message features beyond plain send and consume that several processors share: SQL92 and tag subscription
 * filters, request-reply and message trace settings, the timer's flow control. Built once per broker from its configuration (a bad value
 * stops the start with a message naming it); every member is thread-safe. Also the recall settings.
 */
public record MessageFeatures(SubscriptionFilters filters, ReplyConfig reply, TraceConfig trace,
                              TimerFlowControl timerFlow, RecallConfig recall) {
    public static MessageFeatures from(JsonObject rawConfig) {
        return new MessageFeatures(new SubscriptionFilters(FilterConfig.from(rawConfig)), ReplyConfig.from(rawConfig),
            TraceConfig.from(rawConfig), TimerFlowControl.from(rawConfig), RecallConfig.from(rawConfig));
    }

    /** The topics these features create at start, as RocketMQ's broker does: the reply topic, the trace topic. */
    public void ensureTopics(TopicConfigTable topics, String clusterName) {
        ReplyTopics.ensure(topics, clusterName);
        if (trace.traceTopicEnable()) {
            topics.putIfAbsent(TopicConfig.of(trace.msgTraceTopicName(), 1, Permission.READ_WRITE));
        }
    }
}
