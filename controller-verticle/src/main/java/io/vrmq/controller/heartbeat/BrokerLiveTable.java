package io.vrmq.controller.heartbeat;

import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.ReplicaHeartbeat;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * This node's view of which replicas are alive, RocketMQ's {@code DefaultBrokerHeartbeatManager}: fed by
 * BROKER_HEARTBEAT, emptied for a broker when its connection closes (at once) or when it stays silent longer than its
 * heartbeat timeout (by {@link #expire}). Not replicated: each controller node keeps its own, brokers send to all.
 *
 * <p>Epoch, max offset and confirm offset only move forward (a higher epoch, or the same epoch with a higher max
 * offset), as in RocketMQ, so an out-of-order heartbeat cannot make a replica look behind. Unlike 5.5.0, which keeps
 * the connection of the first heartbeat, the address and connection follow the latest heartbeat, so a broker that
 * reconnected is still marked inactive when its new connection closes. Thread-safe (a concurrent map of immutable
 * entries); in the controller only its event loop calls it.
 */
public final class BrokerLiveTable implements BrokerLiveness {
    private final LongSupplier clockMs;
    private final Map<BrokerIdentity, Entry> entries = new ConcurrentHashMap<>();

    public BrokerLiveTable(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    /** Records a heartbeat; returns true when the replica was not known before (a new or returning broker). */
    public boolean onHeartbeat(HeartbeatReport report, RemotingConnection connection) {
        BrokerIdentity id = report.identity();
        long nowMs = clockMs.getAsLong();
        Entry previous = entries.get(id);
        ReplicaHeartbeat heartbeat;
        if (previous == null) {
            heartbeat = new ReplicaHeartbeat(id.brokerName(), id.brokerId(), report.brokerAddr(), nowMs,
                report.heartbeatTimeoutMs(), report.epoch(), report.maxOffset(), report.confirmOffset(),
                report.electionPriority());
        } else {
            ReplicaHeartbeat last = previous.heartbeat();
            boolean isAhead = report.epoch() > last.epoch()
                || report.epoch() == last.epoch() && report.maxOffset() > last.maxOffset();
            heartbeat = new ReplicaHeartbeat(id.brokerName(), id.brokerId(), report.brokerAddr(), nowMs,
                report.heartbeatTimeoutMs(), isAhead ? report.epoch() : last.epoch(),
                isAhead ? report.maxOffset() : last.maxOffset(),
                isAhead ? report.confirmOffset() : last.confirmOffset(), report.electionPriority());
        }
        entries.put(id, new Entry(id, heartbeat, connection));
        return previous == null;
    }

    /** Drops every replica whose latest heartbeat came over {@code connection}; returns them. */
    public List<BrokerIdentity> onConnectionClosed(RemotingConnection connection) {
        List<BrokerIdentity> inactive = new ArrayList<>();
        entries.values().forEach(entry -> {
            if (entry.connection() == connection && entries.remove(entry.identity(), entry)) {
                inactive.add(entry.identity());
            }
        });
        return inactive;
    }

    /** Drops every replica silent for longer than its heartbeat timeout; returns them with their connections. */
    public List<Entry> expire() {
        long nowMs = clockMs.getAsLong();
        List<Entry> expired = new ArrayList<>();
        entries.values().forEach(entry -> {
            if (!entry.heartbeat().isAliveAt(nowMs) && entries.remove(entry.identity(), entry)) {
                expired.add(entry);
            }
        });
        return expired;
    }

    @Override
    public boolean isAlive(String clusterName, String brokerName, long brokerId) {
        Entry entry = entries.get(new BrokerIdentity(clusterName, brokerName, brokerId));
        return entry != null && entry.heartbeat().isAliveAt(clockMs.getAsLong());
    }

    @Override
    public ReplicaHeartbeat heartbeatOf(String clusterName, String brokerName, long brokerId) {
        Entry entry = entries.get(new BrokerIdentity(clusterName, brokerName, brokerId));
        return entry == null ? null : entry.heartbeat();
    }

    public int size() {
        return entries.size();
    }

    /** One replica's latest heartbeat and the connection it came over (null for a test's direct record). */
    public record Entry(BrokerIdentity identity, ReplicaHeartbeat heartbeat, RemotingConnection connection) {
    }
}
