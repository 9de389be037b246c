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

    /**
     * The group's name only: a heartbeat's consumers are decoded into a set, and the record's own hash would walk
     * every subscription of the group (thousands for a client subscribed to every topic) for each heartbeat. Equal
     * values still hash alike; a client has one entry per group, so the set's buckets stay as spread as before.
     */
    @Override
    public int hashCode() {
        return groupName == null ? 0 : groupName.hashCode();
    }
}
