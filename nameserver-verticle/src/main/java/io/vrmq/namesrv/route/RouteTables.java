package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.ClusterInfo;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.transport.RemotingConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * The NameServer's route tables, as RocketMQ keeps them: topic → queue data per broker name; broker name → group
 * (cluster, address per broker id); cluster → broker names; live broker processes; filter servers.
 *
 * <p>Thread-safe. One read-write lock guards every table. A lock rather than confinement to one event loop because
 * the admin HTTP router, the liveness scan and the remoting event loop all read these tables, and the hot path
 * (route queries, every client every 30 s) is all reads that should proceed in parallel, while writes
 * (registrations, every broker every 30 s) are rare. Nothing mutable leaves the lock: reads return copies.
 * The lock is never held across I/O.
 */
public final class RouteTables {
    private static final Logger log = LoggerFactory.getLogger(RouteTables.class);

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Map<String, QueueData>> topicQueueTable = new HashMap<>();
    private final Map<String, BrokerGroup> brokerAddrTable = new HashMap<>();
    private final Map<String, Set<String>> clusterAddrTable = new HashMap<>();
    private final Map<BrokerAddrKey, BrokerLiveInfo> brokerLiveTable = new HashMap<>();
    private final Map<BrokerAddrKey, List<String>> filterServerTable = new HashMap<>();
    private final LongSupplier clockMs;
    private final LongSupplier defaultHeartbeatTimeoutMs;
    private final BooleanSupplier supportActingMaster;

    public RouteTables(LongSupplier clockMs, long defaultHeartbeatTimeoutMs, boolean supportActingMaster) {
        this(clockMs, () -> defaultHeartbeatTimeoutMs, () -> supportActingMaster);
    }

    /** With settings read at each use, so that UPDATE_NAMESRV_CONFIG can change them on a running server. */
    public RouteTables(LongSupplier clockMs, LongSupplier defaultHeartbeatTimeoutMs,
                       BooleanSupplier supportActingMaster) {
        this.clockMs = clockMs;
        this.defaultHeartbeatTimeoutMs = defaultHeartbeatTimeoutMs;
        this.supportActingMaster = supportActingMaster;
    }

    public RegisterResult registerBroker(BrokerRegistration registration) {
        lock.writeLock().lock();
        try {
            return registerLocked(registration);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private RegisterResult registerLocked(BrokerRegistration broker) {
        clusterAddrTable.computeIfAbsent(broker.clusterName(), name -> new TreeSet<>()).add(broker.brokerName());
        BrokerGroup group = brokerAddrTable.get(broker.brokerName());
        boolean isFirstRegistration = group == null;
        if (group == null) {
            group = new BrokerGroup(broker.clusterName(), broker.brokerName());
            brokerAddrTable.put(broker.brokerName(), group);
        }
        group.enableActingMaster = broker.enableActingMaster();
        group.zoneName = broker.zoneName();
        // An address that changes role (a slave promoted to master) is first removed under its old id.
        group.addrsById.entrySet().removeIf(entry -> entry.getValue().equals(broker.brokerAddr())
            && entry.getKey() != broker.brokerId());
        if (isFencedLocked(group, broker)) {
            brokerLiveTable.remove(new BrokerAddrKey(broker.clusterName(), broker.brokerAddr()));
            return new RegisterResult(null, null);
        }
        String previousAddr = group.addrsById.put(broker.brokerId(), broker.brokerAddr());
        isFirstRegistration |= previousAddr == null;

        BrokerAddrKey key = new BrokerAddrKey(broker.clusterName(), broker.brokerAddr());
        boolean isMaster = broker.brokerId() == BrokerData.MASTER_ID;
        boolean isPrimeSlave = !isMaster && broker.brokerId() == group.addrsById.firstKey();
        DataVersion version = broker.topics() == null ? null : broker.topics().dataVersion();
        if (broker.topics() != null && (isMaster || isPrimeSlave)) {
            // RocketMQ's rule per topic: every topic when the version moved, else only the topics this broker name
            // has no queue data for, so that a full registration repairs what an incremental one (one topic, the
            // full version) left out when it reached a NameServer that did not know the broker yet.
            boolean isVersionChanged = isFirstRegistration || isTopicConfigChangedLocked(key, version);
            boolean wipeWrite = isPrimeSlave && group.enableActingMaster;
            int newTopics = 0;
            int changedTopics = 0;
            for (TopicConfig topic : broker.topics().topicConfigTable().values()) {
                if (!isVersionChanged && hasQueueDataLocked(topic.topicName(), broker.brokerName())) {
                    continue;
                }
                QueueData queues = QueueData.of(broker.brokerName(), topic);
                QueuePut put = putQueueDataLocked(topic.topicName(), wipeWrite ? queues.withPerm(queues.perm()
                    & ~Permission.WRITE) : queues);
                newTopics += put == QueuePut.NEW ? 1 : 0;
                changedTopics += put == QueuePut.CHANGED ? 1 : 0;
            }
            if (newTopics + changedTopics > 0) {
                log.info("{} {} id {} registered {} topics: {} new, {} changed", broker.clusterName(),
                    broker.brokerName(), broker.brokerId(), broker.topics().topicConfigTable().size(), newTopics,
                    changedTopics);
            }
        }
        long timeoutMs = broker.heartbeatTimeoutMs() > 0 ? broker.heartbeatTimeoutMs()
            : defaultHeartbeatTimeoutMs.getAsLong();
        BrokerLiveInfo previous = brokerLiveTable.put(key, new BrokerLiveInfo(clockMs.getAsLong(), timeoutMs,
            version, broker.connection(), broker.haServerAddr()));
        if (previous == null) {
            log.info("new broker registered: {} {} id {} at {}", broker.clusterName(), broker.brokerName(),
                broker.brokerId(), broker.brokerAddr());
        }
        if (broker.filterServerList().isEmpty()) {
            filterServerTable.remove(key);
        } else {
            filterServerTable.put(key, List.copyOf(broker.filterServerList()));
        }
        return isMaster ? new RegisterResult(null, null) : masterOfLocked(group);
    }

    /**
     * Controller mode's fence (RocketMQ's rule): a registration for an id another address holds is ignored when the
     * holder's state version (its master epoch) is newer, so a stale old master cannot take id 0 back from the one
     * the controller elected after it.
     */
    private boolean isFencedLocked(BrokerGroup group, BrokerRegistration broker) {
        String holderAddr = group.addrsById.get(broker.brokerId());
        if (holderAddr == null || holderAddr.equals(broker.brokerAddr()) || broker.topics() == null
            || broker.topics().dataVersion() == null) {
            return false;
        }
        BrokerLiveInfo holder = brokerLiveTable.get(new BrokerAddrKey(broker.clusterName(), holderAddr));
        if (holder == null || holder.dataVersion() == null
            || holder.dataVersion().stateVersion() <= broker.topics().dataVersion().stateVersion()) {
            return false;
        }
        log.warn("registration of {} {} id {} at {} (state version {}) ignored: {} holds that id with state version {}",
            broker.clusterName(), broker.brokerName(), broker.brokerId(), broker.brokerAddr(),
            broker.topics().dataVersion().stateVersion(), holderAddr, holder.dataVersion().stateVersion());
        return true;
    }

    private RegisterResult masterOfLocked(BrokerGroup group) {
        String masterAddr = group.addrsById.get(BrokerData.MASTER_ID);
        if (masterAddr == null) {
            return new RegisterResult(null, null);
        }
        BrokerLiveInfo master = brokerLiveTable.get(new BrokerAddrKey(group.clusterName, masterAddr));
        return new RegisterResult(masterAddr, master == null ? null : master.haServerAddr());
    }

    private boolean hasQueueDataLocked(String topic, String brokerName) {
        Map<String, QueueData> queues = topicQueueTable.get(topic);
        return queues != null && queues.containsKey(brokerName);
    }

    /** What {@link #putQueueDataLocked} did to a topic's queue data for one broker name. */
    private enum QueuePut { NEW, CHANGED, SAME }

    /**
     * Per topic at DEBUG only: a registration carries every topic of the broker (50,000 in the scale table), and a
     * line per topic written under the write lock made one registration take seconds; the caller logs a summary.
     */
    private QueuePut putQueueDataLocked(String topic, QueueData queues) {
        QueueData old = topicQueueTable.computeIfAbsent(topic, name -> new HashMap<>())
            .put(queues.brokerName(), queues);
        if (old == null) {
            log.debug("new topic registered: {} {}", topic, queues);
            return QueuePut.NEW;
        }
        if (!old.equals(queues)) {
            log.debug("topic changed: {} from {} to {}", topic, old, queues);
            return QueuePut.CHANGED;
        }
        return QueuePut.SAME;
    }

    /** Removes one broker process (clean unregistration). */
    public List<RemovedBroker> unregisterBroker(String clusterName, String brokerAddr, String brokerName) {
        lock.writeLock().lock();
        try {
            return removeProcessLocked(new BrokerAddrKey(clusterName, brokerAddr), brokerName);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes the broker processes registered over {@code connection}, which has closed. */
    public List<RemovedBroker> connectionClosed(RemotingConnection connection) {
        lock.writeLock().lock();
        try {
            List<RemovedBroker> removed = new ArrayList<>();
            for (BrokerAddrKey key : keysLocked(live -> live.connection() == connection)) {
                removed.addAll(removeProcessLocked(key, null));
            }
            return removed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Removes every broker silent for longer than its heartbeat timeout and returns what it removed with the
     * connections to close (the caller closes them, outside the lock).
     */
    public Map<RemovedBroker, RemotingConnection> expireSilentBrokers() {
        long nowMs = clockMs.getAsLong();
        lock.writeLock().lock();
        try {
            Map<RemovedBroker, RemotingConnection> expired = new HashMap<>();
            for (BrokerAddrKey key : keysLocked(live -> live.isExpired(nowMs))) {
                RemotingConnection connection = brokerLiveTable.get(key).connection();
                for (RemovedBroker removed : removeProcessLocked(key, null)) {
                    expired.put(removed, connection);
                }
            }
            return expired;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private List<BrokerAddrKey> keysLocked(java.util.function.Predicate<BrokerLiveInfo> which) {
        List<BrokerAddrKey> keys = new ArrayList<>();
        brokerLiveTable.forEach((key, live) -> {
            if (which.test(live)) {
                keys.add(key);
            }
        });
        return keys;
    }

    /** Drops a process from the live table and from every group of its cluster (or only {@code brokerName}). */
    private List<RemovedBroker> removeProcessLocked(BrokerAddrKey key, String brokerName) {
        brokerLiveTable.remove(key);
        filterServerTable.remove(key);
        List<RemovedBroker> removed = new ArrayList<>();
        for (BrokerGroup group : new ArrayList<>(brokerAddrTable.values())) {
            if (!group.clusterName.equals(key.clusterName())
                || (brokerName != null && !group.brokerName.equals(brokerName))) {
                continue;
            }
            for (Map.Entry<Long, String> entry : new ArrayList<>(group.addrsById.entrySet())) {
                if (entry.getValue().equals(key.brokerAddr())) {
                    removed.add(new RemovedBroker(key.clusterName(), group.brokerName, entry.getKey(),
                        key.brokerAddr()));
                }
            }
            if (group.removeAddress(key.brokerAddr())) {
                if (group.addrsById.isEmpty()) {
                    removeGroupLocked(group);
                } else if (group.enableActingMaster && !group.addrsById.containsKey(BrokerData.MASTER_ID)) {
                    wipeWritePermLocked(group.brokerName);
                }
            }
        }
        removed.forEach(broker -> log.info("broker removed: {}", broker));
        return removed;
    }

    /**
     * The master of an acting-master group is gone: its queues stay readable on the slaves but take no sends, as
     * RocketMQ's cleanTopicByUnRegisterRequests does (the route then shows the lowest slave as id 0).
     */
    private void wipeWritePermLocked(String brokerName) {
        for (Map<String, QueueData> queues : topicQueueTable.values()) {
            QueueData queue = queues.get(brokerName);
            if (queue != null) {
                queues.put(brokerName, queue.withPerm(queue.perm() & ~Permission.WRITE));
            }
        }
    }

    private void removeGroupLocked(BrokerGroup group) {
        brokerAddrTable.remove(group.brokerName);
        Set<String> names = clusterAddrTable.get(group.clusterName);
        if (names != null && names.remove(group.brokerName) && names.isEmpty()) {
            clusterAddrTable.remove(group.clusterName);
        }
        topicQueueTable.values().removeIf(queues -> queues.remove(group.brokerName) != null && queues.isEmpty());
    }

    /** Records a heartbeat without a registration (BROKER_HEARTBEAT, or an unchanged QUERY_DATA_VERSION). */
    public void touch(String clusterName, String brokerAddr) {
        lock.writeLock().lock();
        try {
            brokerLiveTable.computeIfPresent(new BrokerAddrKey(clusterName, brokerAddr),
                (key, live) -> live.touched(clockMs.getAsLong()));
        } finally {
            lock.writeLock().unlock();
        }
    }

    public boolean isTopicConfigChanged(String clusterName, String brokerAddr, DataVersion version) {
        lock.readLock().lock();
        try {
            return isTopicConfigChangedLocked(new BrokerAddrKey(clusterName, brokerAddr), version);
        } finally {
            lock.readLock().unlock();
        }
    }

    private boolean isTopicConfigChangedLocked(BrokerAddrKey key, DataVersion version) {
        BrokerLiveInfo live = brokerLiveTable.get(key);
        return live == null || live.dataVersion() == null || !live.dataVersion().equals(version);
    }

    /** The data version the broker last registered, or null when it is not live. */
    public DataVersion dataVersionOf(String clusterName, String brokerAddr) {
        lock.readLock().lock();
        try {
            BrokerLiveInfo live = brokerLiveTable.get(new BrokerAddrKey(clusterName, brokerAddr));
            return live == null ? null : live.dataVersion();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The route of {@code topic}, or null when no live broker group serves it. */
    public TopicRouteData routeOf(String topic) {
        lock.readLock().lock();
        try {
            Map<String, QueueData> queues = topicQueueTable.get(topic);
            if (queues == null || queues.isEmpty()) {
                return null;
            }
            List<BrokerData> brokers = new ArrayList<>();
            Map<String, List<String>> filterServers = new HashMap<>();
            for (String brokerName : new TreeSet<>(queues.keySet())) {
                BrokerGroup group = brokerAddrTable.get(brokerName);
                if (group == null) {
                    continue;
                }
                brokers.add(supportActingMaster.getAsBoolean() ? group.snapshotWithActingMaster() : group.snapshot());
                for (String addr : group.addrsById.values()) {
                    List<String> servers = filterServerTable.get(new BrokerAddrKey(group.clusterName, addr));
                    if (servers != null) {
                        filterServers.put(addr, servers);
                    }
                }
            }
            if (brokers.isEmpty()) {
                return null;
            }
            List<QueueData> queueDatas = new ArrayList<>(new TreeMap<>(queues).values());
            return new TopicRouteData(null, queueDatas, brokers, filterServers);
        } finally {
            lock.readLock().unlock();
        }
    }

    public ClusterInfo clusterInfo() {
        lock.readLock().lock();
        try {
            Map<String, BrokerData> brokers = new TreeMap<>();
            brokerAddrTable.forEach((name, group) -> brokers.put(name, group.snapshot()));
            Map<String, Set<String>> clusters = new TreeMap<>();
            clusterAddrTable.forEach((cluster, names) -> clusters.put(cluster, new TreeSet<>(names)));
            return new ClusterInfo(brokers, clusters);
        } finally {
            lock.readLock().unlock();
        }
    }

    public TopicList allTopics() {
        lock.readLock().lock();
        try {
            return new TopicList(new TreeSet<>(topicQueueTable.keySet()));
        } finally {
            lock.readLock().unlock();
        }
    }

    public int topicCount() {
        lock.readLock().lock();
        try {
            return topicQueueTable.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    public int liveBrokerCount() {
        lock.readLock().lock();
        try {
            return brokerLiveTable.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    public TopicList topicsOfCluster(String clusterName) {
        lock.readLock().lock();
        try {
            Set<String> brokerNames = clusterAddrTable.getOrDefault(clusterName, Set.of());
            Set<String> topics = new TreeSet<>();
            topicQueueTable.forEach((topic, queues) -> {
                if (queues.keySet().stream().anyMatch(brokerNames::contains)) {
                    topics.add(topic);
                }
            });
            return new TopicList(topics);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Topics whose queue data has a topicSysFlag matching {@code flags} (the unit-topic queries). */
    public TopicList topicsWithSysFlag(IntPredicate flags) {
        lock.readLock().lock();
        try {
            Set<String> topics = new TreeSet<>();
            topicQueueTable.forEach((topic, queues) -> {
                if (queues.values().stream().anyMatch(queue -> flags.test(queue.topicSysFlag()))) {
                    topics.add(topic);
                }
            });
            return new TopicList(topics);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** RocketMQ's "system topics": every cluster name and broker name, plus one master address. */
    public TopicList systemTopics() {
        lock.readLock().lock();
        try {
            Set<String> topics = new TreeSet<>();
            String anyMaster = null;
            for (Map.Entry<String, Set<String>> cluster : clusterAddrTable.entrySet()) {
                topics.add(cluster.getKey());
                topics.addAll(cluster.getValue());
            }
            for (BrokerGroup group : brokerAddrTable.values()) {
                anyMaster = anyMaster != null ? anyMaster : group.addrsById.get(BrokerData.MASTER_ID);
            }
            return new TopicList(topics, anyMaster);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Removes a topic everywhere, or only from the brokers of {@code clusterName} when it is given. */
    public boolean deleteTopic(String topic, String clusterName) {
        lock.writeLock().lock();
        try {
            if (clusterName == null || clusterName.isEmpty()) {
                return topicQueueTable.remove(topic) != null;
            }
            Map<String, QueueData> queues = topicQueueTable.get(topic);
            Set<String> brokerNames = clusterAddrTable.getOrDefault(clusterName, Set.of());
            if (queues == null || !queues.keySet().removeAll(brokerNames)) {
                return false;
            }
            if (queues.isEmpty()) {
                topicQueueTable.remove(topic);
            }
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Adds queue data for brokers we know (REGISTER_TOPIC_IN_NAMESRV); unknown broker names are ignored. */
    public void registerTopic(String topic, List<QueueData> queueDatas) {
        lock.writeLock().lock();
        try {
            for (QueueData queues : queueDatas) {
                if (brokerAddrTable.containsKey(queues.brokerName())
                    && putQueueDataLocked(topic, queues) != QueuePut.SAME) {
                    log.info("topic {} registered on {}: {}", topic, queues.brokerName(), queues);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Clears (wipe) or restores (read + write) the write permission of every topic on a broker name. */
    public int changeWritePerm(String brokerName, boolean writable) {
        lock.writeLock().lock();
        try {
            int changed = 0;
            for (Map<String, QueueData> queues : topicQueueTable.values()) {
                QueueData queue = queues.get(brokerName);
                if (queue != null) {
                    int perm = writable ? Permission.READ_WRITE : queue.perm() & ~Permission.WRITE;
                    queues.put(brokerName, queue.withPerm(perm));
                    changed++;
                }
            }
            return changed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A broker group's addresses by id, or an empty map. */
    public Map<Long, String> groupMembers(String clusterName, String brokerName) {
        lock.readLock().lock();
        try {
            BrokerGroup group = brokerAddrTable.get(brokerName);
            return group == null || !group.clusterName.equals(clusterName) ? Map.of()
                : new TreeMap<>(group.addrsById);
        } finally {
            lock.readLock().unlock();
        }
    }

    public List<LiveBroker> liveBrokers() {
        lock.readLock().lock();
        try {
            List<LiveBroker> brokers = new ArrayList<>();
            for (BrokerGroup group : new TreeMap<>(brokerAddrTable).values()) {
                group.addrsById.forEach((id, addr) -> {
                    BrokerLiveInfo live = brokerLiveTable.get(new BrokerAddrKey(group.clusterName, addr));
                    if (live != null) {
                        brokers.add(new LiveBroker(group.clusterName, group.brokerName, id, addr,
                            live.haServerAddr(), live.lastUpdateTimestamp(), live.dataVersion()));
                    }
                });
            }
            return brokers;
        } finally {
            lock.readLock().unlock();
        }
    }
}
