package io.vrmq.broker.recall;

import io.vertx.core.json.JsonObject;

/**
 * Recall settings (RocketMQ 5.5.0's BrokerConfig names and defaults; keys in {@code broker-defaults.json}).
 *
 * @param recallMessageEnable                RECALL_MESSAGE is served at all; off by default, as in RocketMQ (every
 *                                           recall is then NO_PERMISSION). Send replies carry recall handles either
 *                                           way, as RocketMQ's do
 * @param allowRecallWhenBrokerNotWriteable  a broker whose brokerPermission lacks write still takes recalls
 */
public record RecallConfig(boolean recallMessageEnable, boolean allowRecallWhenBrokerNotWriteable) {
    public static RecallConfig from(JsonObject json) {
        return new RecallConfig(json.getBoolean("recallMessageEnable", false),
            json.getBoolean("allowRecallWhenBrokerNotWriteable", true));
    }
}
