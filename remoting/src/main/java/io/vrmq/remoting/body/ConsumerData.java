package io.vrmq.remoting.body;

import java.util.Set;

/**
 * One consumer group of a client, as heartbeats carry it. consumeType: CONSUME_ACTIVELY (pull) or
 * CONSUME_PASSIVELY (push); messageModel: CLUSTERING or BROADCASTING.
 */
public record ConsumerData(String groupName, String consumeType, String messageModel, String consumeFromWhere,
                           Set<SubscriptionData> subscriptionDataSet, boolean unitMode) {
    public ConsumerData {
        subscriptionDataSet = subscriptionDataSet == null ? Set.of() : subscriptionDataSet;
    }
}
