package io.vrmq.broker.feature;

import io.vertx.core.json.JsonObject;
import io.vrmq.broker.filter.FilterConfig;
import io.vrmq.broker.filter.SubscriptionFilters;

/**
 * The message features beyond plain send and consume that several processors share: SQL92 and tag subscription
 * filters. Built once per broker from its configuration; every member is thread-safe.
 */
public record MessageFeatures(SubscriptionFilters filters) {
    public static MessageFeatures from(JsonObject rawConfig) {
        return new MessageFeatures(new SubscriptionFilters(FilterConfig.from(rawConfig)));
    }
}
