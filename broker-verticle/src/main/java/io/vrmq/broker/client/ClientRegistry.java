package io.vrmq.broker.client;

import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.RemotingConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Producer and consumer groups and their live client connections, learned from heartbeats. A consumer group's
 * membership change (a client joins, leaves, closes or goes silent) is announced to the group's remaining members
 * with a oneway NOTIFY_CONSUMER_IDS_CHANGED (40), so they rebalance at once.
 * <p>
 * A silent registration (no heartbeat for channelExpiredTimeout) is dropped on its own. Its connection is closed, as
 * Apache's broker closes a silent client's channel, only when nothing live is left on it: a connection that several
 * clients share (an Apache proxy in cluster mode) stays open while any of them heartbeats. The broker's own gRPC
 * endpoint's link, which carries every gRPC client, is never closed for silence ({@link #keepOpen}). Thread-safe.
 */
public final class ClientRegistry {
    private static final Logger log = LoggerFactory.getLogger(ClientRegistry.class);

    private final Map<String, ConsumerGroupInfo> consumerGroups = new ConcurrentHashMap<>();
    private final Map<String, Map<RemotingConnection, ClientChannel>> producerGroups = new ConcurrentHashMap<>();
    private final Set<RemotingConnection> watched = ConcurrentHashMap.newKeySet();
    private volatile Predicate<RemotingConnection> isKeptOpen = connection -> false;
    private final LongSupplier clockMs;
    private final long channelExpiredTimeoutMs;

    public ClientRegistry(LongSupplier clockMs, long channelExpiredTimeoutMs) {
        this.clockMs = clockMs;
        this.channelExpiredTimeoutMs = channelExpiredTimeoutMs;
    }

    public ClientChannel channel(String clientId, RemotingConnection connection, RemotingCommand request) {
        watch(connection);
        return new ClientChannel(clientId, request.language(), request.version(), connection, clockMs.getAsLong());
    }

    /** Records a consumer heartbeat; returns true when the group's subscriptions changed. */
    public boolean registerConsumer(ClientChannel channel, ConsumerData consumer) {
        ConsumerGroupInfo group = consumerGroups.computeIfAbsent(consumer.groupName(), ConsumerGroupInfo::new);
        boolean isNewMember = group.update(channel, consumer.consumeType(), consumer.messageModel(),
            consumer.consumeFromWhere());
        boolean isSubscriptionChanged = group.updateSubscriptions(consumer.subscriptionDataSet());
        if (isNewMember) {
            log.info("consumer {} joined group {}", channel.clientId(), consumer.groupName());
            notifyMembersChanged(group);
        }
        return isSubscriptionChanged;
    }

    public void registerProducer(ClientChannel channel, String groupName) {
        producerGroups.computeIfAbsent(groupName, name -> new ConcurrentHashMap<>()).put(channel.connection(),
            channel);
    }

    public void unregisterConsumer(String groupName, RemotingConnection connection) {
        ConsumerGroupInfo group = consumerGroups.get(groupName);
        if (group != null && group.remove(connection)) {
            log.info("consumer at {} left group {}", connection.remoteAddress(), groupName);
            dropIfEmpty(group);
            notifyMembersChanged(group);
        }
    }

    public void unregisterProducer(String groupName, RemotingConnection connection) {
        Map<RemotingConnection, ClientChannel> members = producerGroups.get(groupName);
        if (members != null) {
            members.remove(connection);
        }
    }

    public ConsumerGroupInfo consumerGroup(String groupName) {
        return consumerGroups.get(groupName);
    }

    public Set<String> consumerGroupNames() {
        return new TreeSet<>(consumerGroups.keySet());
    }

    public List<ClientChannel> producers(String groupName) {
        Map<RemotingConnection, ClientChannel> members = producerGroups.get(groupName);
        return members == null ? List.of() : List.copyOf(members.values());
    }

    public Set<String> producerGroupNames() {
        return new TreeSet<>(producerGroups.keySet());
    }

    /** Groups with a member subscribed to {@code topic}. */
    public Set<String> groupsSubscribing(String topic) {
        Set<String> groups = new TreeSet<>();
        consumerGroups.forEach((name, group) -> {
            if (group.subscription(topic) != null) {
                groups.add(name);
            }
        });
        return groups;
    }

    /** Names connections never closed for silence (the gRPC endpoint's link, even with a single client on it). */
    public void keepOpen(Predicate<RemotingConnection> isKeptOpen) {
        this.isKeptOpen = isKeptOpen;
    }

    /**
     * Forgets registrations silent for longer than channelExpiredTimeout (RocketMQ: 120 s), and closes a connection
     * left with nothing live on it, unless several clients share it (see the class comment).
     */
    public void expireSilentClients() {
        long deadline = clockMs.getAsLong() - channelExpiredTimeoutMs;
        Set<RemotingConnection> touched = new HashSet<>();
        for (ConsumerGroupInfo group : consumerGroups.values()) {
            for (ClientChannel channel : group.channels()) {
                if (channel.lastUpdateTimestamp() < deadline && group.remove(channel.connection())) {
                    log.warn("consumer {} at {} of group {} silent for over {} ms: unregistered", channel.clientId(),
                        channel.connection().remoteAddress(), group.groupName(), channelExpiredTimeoutMs);
                    touched.add(channel.connection());
                    dropIfEmpty(group);
                    notifyMembersChanged(group);
                }
            }
        }
        producerGroups.forEach((name, members) -> members.values().forEach(channel -> {
            if (channel.lastUpdateTimestamp() < deadline && members.remove(channel.connection(), channel)) {
                log.warn("producer {} at {} of group {} silent for over {} ms: unregistered", channel.clientId(),
                    channel.connection().remoteAddress(), name, channelExpiredTimeoutMs);
                touched.add(channel.connection());
            }
        }));
        for (RemotingConnection connection : touched) {
            if (!isKeptOpen.test(connection) && !isRegistered(connection)) {
                log.warn("client at {} silent for over {} ms: closing", connection.remoteAddress(),
                    channelExpiredTimeoutMs);
                connection.close();
            }
        }
    }

    private boolean isRegistered(RemotingConnection connection) {
        return consumerGroups.values().stream().anyMatch(group -> group.channelMap().containsKey(connection))
            || producerGroups.values().stream().anyMatch(members -> members.containsKey(connection));
    }

    private void watch(RemotingConnection connection) {
        if (watched.add(connection)) {
            connection.onClose(this::connectionClosed);
        }
    }

    private void connectionClosed(RemotingConnection connection) {
        watched.remove(connection);
        producerGroups.values().forEach(members -> members.remove(connection));
        for (ConsumerGroupInfo group : consumerGroups.values()) {
            if (group.remove(connection)) {
                log.info("consumer at {} of group {} disconnected", connection.remoteAddress(), group.groupName());
                dropIfEmpty(group);
                notifyMembersChanged(group);
            }
        }
    }

    private void dropIfEmpty(ConsumerGroupInfo group) {
        if (group.isEmpty()) {
            consumerGroups.remove(group.groupName(), group);
        }
    }

    private void notifyMembersChanged(ConsumerGroupInfo group) {
        RemotingCommand notify = RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED,
            Map.of("consumerGroup", group.groupName()), null);
        for (ClientChannel member : group.channels()) {
            member.connection().invokeOneway(notify)
                .onFailure(error -> log.debug("notify {} failed: {}", member.clientId(), error.toString()));
        }
    }
}
