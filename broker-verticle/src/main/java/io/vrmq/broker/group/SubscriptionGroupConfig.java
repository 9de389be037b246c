package io.vrmq.broker.group;

import java.util.Map;

/**
 * A consumer group's settings, as RocketMQ's SubscriptionGroupConfig (same JSON field names, so mqadmin's
 * updateSubGroup and the admin API read and write it as they expect).
 */
public record SubscriptionGroupConfig(String groupName, boolean consumeEnable, boolean consumeFromMinEnable,
                                      boolean consumeBroadcastEnable, boolean consumeMessageOrderly,
                                      int retryQueueNums, int retryMaxTimes, long brokerId,
                                      long whichBrokerWhenConsumeSlowly, boolean notifyConsumerIdsChangedEnable,
                                      int groupSysFlag, int consumeTimeoutMinute, Map<String, String> attributes) {
    public SubscriptionGroupConfig {
        attributes = attributes == null ? Map.of() : attributes;
    }

    /** RocketMQ's defaults for a group created on first use. */
    public static SubscriptionGroupConfig defaults(String groupName, int retryMaxTimes) {
        return new SubscriptionGroupConfig(groupName, true, false, true, false, 1, retryMaxTimes, 0, 1, true, 0,
            15, Map.of());
    }
}
