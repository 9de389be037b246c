package io.vrmq.broker.client;

import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A consumer group's live members and subscriptions, as learned from heartbeats. Thread-safe maps; the fields
 * describing the group are volatile and replaced by each heartbeat, as in RocketMQ.
 */
public final class ConsumerGroupInfo {
    private final String groupName;
    private final Map<RemotingConnection, ClientChannel> channels = new ConcurrentHashMap<>();
    private final Map<String, SubscriptionData> subscriptions = new ConcurrentHashMap<>();
    private volatile String consumeType;
    private volatile String messageModel;
    private volatile String consumeFromWhere;

    ConsumerGroupInfo(String groupName) {
        this.groupName = groupName;
    }

    public String groupName() {
        return groupName;
    }

    public String consumeType() {
        return consumeType;
    }

    public String messageModel() {
        return messageModel;
    }

    public String consumeFromWhere() {
        return consumeFromWhere;
    }

    public List<ClientChannel> channels() {
        return List.copyOf(channels.values());
    }

    public List<String> clientIds() {
        return channels.values().stream().map(ClientChannel::clientId).sorted().toList();
    }

    public SubscriptionData subscription(String topic) {
        return subscriptions.get(topic);
    }

    public Map<String, SubscriptionData> subscriptions() {
        return Map.copyOf(subscriptions);
    }

    /** Records a heartbeat; true when the channel is new to the group (membership changed). */
    boolean update(ClientChannel channel, String newConsumeType, String newMessageModel, String newConsumeFromWhere) {
        consumeType = newConsumeType;
        messageModel = newMessageModel;
        consumeFromWhere = newConsumeFromWhere;
        ClientChannel old = channels.put(channel.connection(), channel);
        return old == null || !old.clientId().equals(channel.clientId());
    }

    /**
     * Replaces the subscriptions; true when they changed. One pass over the heartbeat's subscriptions, each compared
     * with the one held for its topic (a newer subVersion replaces it); the topics left out are looked for only when
     * the counts say some are: a client subscribed to every topic heartbeats thousands of them, mostly unchanged.
     * A heartbeat carries one subscription per topic (the client keeps them by topic).
     */
    boolean updateSubscriptions(Collection<SubscriptionData> latest) {
        boolean isChanged = false;
        for (SubscriptionData subscription : latest) {
            SubscriptionData old = subscriptions.get(subscription.topic());
            if (old == null || old.subVersion() < subscription.subVersion()) {
                subscriptions.put(subscription.topic(), subscription);
                isChanged |= old == null || !old.subString().equals(subscription.subString());
            }
        }
        if (subscriptions.size() != latest.size()) {
            Set<String> topics = new HashSet<>();
            latest.forEach(subscription -> topics.add(subscription.topic()));
            isChanged |= subscriptions.keySet().retainAll(topics);
        }
        return isChanged;
    }

    boolean remove(RemotingConnection connection) {
        return channels.remove(connection) != null;
    }

    boolean isEmpty() {
        return channels.isEmpty();
    }

    Map<RemotingConnection, ClientChannel> channelMap() {
        return channels;
    }
}
