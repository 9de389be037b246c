package io.vrmq.broker.filter;

import io.vertx.core.json.JsonObject;

/**
 * Message filter settings (keys in {@code broker-defaults.json}).
 *
 * @param enablePropertyFilter      SQL92 subscriptions are served by pulls and CHECK_CLIENT_CONFIG (RocketMQ's key;
 *                                  RocketMQ defaults it to false, which only makes SQL92 consumers fail at start, so
 *                                  ours is true). POP filters by SQL92 either way, as RocketMQ's POP does.
 * @param maxCachedFilterExpressions compiled expressions (and refused ones) kept for reuse, least recently used
 *                                  dropped first; each subscription's expression compiles once while it stays here
 */
public record FilterConfig(boolean enablePropertyFilter, int maxCachedFilterExpressions) {
    public FilterConfig {
        if (maxCachedFilterExpressions <= 0) {
            throw new IllegalArgumentException("invalid maxCachedFilterExpressions: " + maxCachedFilterExpressions);
        }
    }

    public static FilterConfig from(JsonObject json) {
        return new FilterConfig(json.getBoolean("enablePropertyFilter", true),
            json.getInteger("maxCachedFilterExpressions", 1_024));
    }
}
