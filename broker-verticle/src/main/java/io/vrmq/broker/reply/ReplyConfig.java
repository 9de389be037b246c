package io.vrmq.broker.reply;

import io.vertx.core.json.JsonObject;

/**
 * Request-reply settings (keys in {@code broker-defaults.json}; RocketMQ's names and defaults).
 *
 * @param storeReplyMessageEnable a reply is also stored in {@code <cluster>_REPLY_TOPIC}, besides being pushed to
 *                                the requester (RocketMQ: true); the push decides the answer either way
 * @param pushReplyTimeoutMs      how long the push to the requester may take (RocketMQ's callClient: 10 s)
 */
public record ReplyConfig(boolean storeReplyMessageEnable, long pushReplyTimeoutMs) {
    public ReplyConfig {
        if (pushReplyTimeoutMs <= 0) {
            throw new IllegalArgumentException("invalid pushReplyTimeoutMs: " + pushReplyTimeoutMs);
        }
    }

    public static ReplyConfig from(JsonObject json) {
        return new ReplyConfig(json.getBoolean("storeReplyMessageEnable", true),
            json.getLong("pushReplyTimeoutMs", 10_000L));
    }
}
