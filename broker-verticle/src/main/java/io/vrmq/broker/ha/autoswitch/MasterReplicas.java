package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.ha.HaConfig;
import io.vrmq.broker.ha.ReplicaAckWaiters;
import io.vrmq.broker.ha.SlaveAck;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.MessageStore;
import io.vrmq.store.epoch.EpochEntry;
import io.vrmq.store.epoch.EpochFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The master role of {@link AutoSwitchHaService}: its slave links, the confirm offset they decide, the SyncStateSet
 * changes they cause (RocketMQ's maybeExpandInSyncStateSet, removeConnection, computeConfirmOffset) and the sends
 * waiting for them (RocketMQ's GroupTransferService rules).
 *
 * <p>Confined to the service's context, except the readers the admin views use (volatile snapshots).
 */
final class MasterReplicas implements MasterLink.Events {
    private static final Logger log = LoggerFactory.getLogger(MasterReplicas.class);

    private final Context context;
    private final StoreAccess store;
    private final EpochFile epochs;
    private final HaConfig ha;
    private final AutoSwitchConfig config;
    private final SyncStateSetTracker syncStateSet;
    private final ReplicaAckWaiters waiters = new ReplicaAckWaiters();
    private volatile List<MasterLink> links = List.of();
    private volatile boolean isActive;
    private volatile long localBrokerId = -1;
    private volatile Consumer<Set<Long>> proposer = proposal -> {
    };

    MasterReplicas(Context context, StoreAccess store, EpochFile epochs, HaConfig ha, AutoSwitchConfig config,
                   SyncStateSetTracker syncStateSet) {
        this.context = context;
        this.store = store;
        this.epochs = epochs;
        this.ha = ha;
        this.config = config;
        this.syncStateSet = syncStateSet;
    }

    void setProposer(Consumer<Set<Long>> proposalHandler) {
        this.proposer = proposalHandler;
    }

    /** From now on this broker (controller id {@code brokerId}) is master and accepts slaves. */
    void activate(long brokerId) {
        localBrokerId = brokerId;
        isActive = true;
    }

    /** No longer master: links close, waiting sends end NOT_AVAILABLE. */
    void deactivate(String reason) {
        isActive = false;
        waiters.endAll(SlaveAck.NOT_AVAILABLE);
        closeLinks(reason);
    }

    boolean isActive() {
        return isActive;
    }

    /** A slave connects to the HA port: linked while master, refused otherwise. */
    void accept(NetSocket socket) {
        if (!isActive) {
            log.info("HA link from {} refused: this broker is not master", socket.remoteAddress());
            socket.close();
            return;
        }
        MasterLink link = new MasterLink(this, socket, store, epochs, ha, System.currentTimeMillis());
        List<MasterLink> grown = new ArrayList<>(links);
        grown.add(link);
        links = List.copyOf(grown);
        link.start();
    }

    /** Drops every link without touching the SyncStateSet (a role change, or the broker stopping). */
    void closeLinks(String reason) {
        List<MasterLink> closing = links;
        links = List.of();
        closing.forEach(link -> link.close(reason, false));
    }

    void tick(long nowMs) {
        for (MasterLink link : links) {
            link.tick(nowMs);
        }
        waiters.expire(nowMs);
    }

    /** New CommitLog bytes: the confirm offset may move, idle links stream again. */
    void onAppended() {
        if (isActive) {
            refreshConfirmOffset();
            links.forEach(MasterLink::wake);
        }
    }

    /** See {@link AutoSwitchHaService#awaitReplicas}. */
    Future<SlaveAck> awaitReplicas(long endOffset) {
        if (!isActive) {
            return Future.succeededFuture(SlaveAck.NOT_AVAILABLE);
        }
        if (syncStateSet.inSyncCount() < config.minInSyncReplicas()) {
            return Future.succeededFuture(SlaveAck.IN_SYNC_REPLICAS_NOT_ENOUGH);
        }
        if (isReplicated(endOffset)) {
            return Future.succeededFuture(SlaveAck.OK);
        }
        return waiters.await(endOffset, System.currentTimeMillis() + ha.slaveTimeoutMs());
    }

    /** Slaves with a link (their handshake named them). Any thread. */
    Set<Long> linkedSlaveIds() {
        Set<Long> ids = new HashSet<>();
        for (MasterLink link : links) {
            if (link.slaveId() >= 0) {
                ids.add(link.slaveId());
            }
        }
        return ids;
    }

    /**
     * Stores the confirm offset: the max offset while the set is this broker alone or allAck is off, otherwise
     * {@link #computeConfirmOffset}; then releases the sends it satisfies.
     */
    void refreshConfirmOffset() {
        MessageStore messages = store.store();
        boolean followsMax = syncStateSet.local().size() <= 1 || !config.allAckInSyncStateSet();
        messages.setConfirmOffset(followsMax ? messages.getCommitLogMaxOffset() : computeConfirmOffset(localBrokerId));
        waiters.release(this::isReplicated);
    }

    /**
     * RocketMQ's computeConfirmOffset: the lowest acknowledgement (above 0) of the set's members (the union with a
     * proposal in flight), at most the max offset; the stored value unchanged while a member other than this broker
     * has no link. {@code brokerId}: this broker's controller id.
     */
    long computeConfirmOffset(long brokerId) {
        MessageStore messages = store.store();
        Set<Long> members = syncStateSet.effective();
        Set<Long> linked = linkedSlaveIds();
        for (long member : members) {
            if (member != brokerId && !linked.contains(member)) {
                return messages.confirmOffset();
            }
        }
        long confirmOffset = messages.getCommitLogMaxOffset();
        for (MasterLink link : links) {
            if (members.contains(link.slaveId()) && link.ackOffset() > 0) {
                confirmOffset = Math.min(confirmOffset, link.ackOffset());
            }
        }
        return confirmOffset;
    }

    /** The admin view of each link. Any thread. */
    List<Map<String, Object>> slaveViews() {
        long maxOffset = store.store().getCommitLogMaxOffset();
        Set<Long> members = syncStateSet.local();
        List<Map<String, Object>> slaves = new ArrayList<>();
        for (MasterLink link : links) {
            Map<String, Object> slave = new LinkedHashMap<>();
            slave.put("brokerId", link.slaveId());
            slave.put("address", link.address());
            slave.put("state", link.state() == AutoSwitchFrames.TRANSFER ? "TRANSFER" : "HANDSHAKE");
            slave.put("ackOffset", link.ackOffset());
            slave.put("behindBytes", link.ackOffset() < 0 ? maxOffset : Math.max(0, maxOffset - link.ackOffset()));
            slave.put("inSyncStateSet", members.contains(link.slaveId()));
            slave.put("asyncLearner", link.isAsyncLearner());
            slave.put("lastCaughtUpTimestamp", syncStateSet.lastCaughtUpMs(link.slaveId()));
            slave.put("transferredBytesPerSecond", link.transferredBytesPerSecond());
            slaves.add(slave);
        }
        return slaves;
    }

    /** HARuntimeInfo's per-link part. Any thread. */
    List<HaRuntimeInfoBody.HaConnectionInfo> connectionInfos(long maxOffset) {
        Set<Long> members = syncStateSet.local();
        List<HaRuntimeInfoBody.HaConnectionInfo> connections = new ArrayList<>();
        for (MasterLink link : links) {
            connections.add(new HaRuntimeInfoBody.HaConnectionInfo(link.address(), link.ackOffset(),
                maxOffset - link.ackOffset(), members.contains(link.slaveId()), link.transferredBytesPerSecond(),
                link.nextTransferOffset()));
        }
        return connections;
    }

    int pendingSyncSends() {
        return waiters.size();
    }

    // ---------------------------------------------------------------- MasterLink.Events

    @Override
    public void onAck(MasterLink link, long ackOffset) {
        if (!isActive || link.slaveId() < 0) {
            return;
        }
        long slaveId = link.slaveId();
        if (!link.isAsyncLearner() && ackOffset >= link.lastMasterMaxOffset()) {
            long nowMs = System.currentTimeMillis();
            boolean isAtMax = store.store().getCommitLogMaxOffset() == ackOffset;
            syncStateSet.caughtUp(slaveId, isAtMax ? nowMs : link.lastTransferTimeMs());
            maybeExpand(slaveId, ackOffset, nowMs);
        }
        if (syncStateSet.effective().contains(slaveId)) {
            refreshConfirmOffset();
        } else {
            waiters.release(this::isReplicated);
        }
    }

    @Override
    public void onNothingToSend(MasterLink link, long nowMs) {
        if (isActive && link.slaveId() >= 0) {
            syncStateSet.caughtUp(link.slaveId(), nowMs);
        }
    }

    @Override
    public void onClosed(MasterLink link) {
        List<MasterLink> current = links;
        if (!current.contains(link)) {
            return;   // already dropped by closeLinks
        }
        List<MasterLink> remaining = new ArrayList<>(current);
        remaining.remove(link);
        links = List.copyOf(remaining);
        long slaveId = link.slaveId();
        if (isActive && slaveId >= 0 && !linkedSlaveIds().contains(slaveId)) {
            syncStateSet.dropOnDisconnect(slaveId, System.currentTimeMillis()).ifPresent(proposal -> {
                log.info("slave {} disconnected: proposing SyncStateSet {}", slaveId, proposal);
                propose(proposal);
            });
        }
    }

    @Override
    public long confirmOffset() {
        MessageStore messages = store.store();
        if (syncStateSet.local().size() <= 1 || !config.allAckInSyncStateSet()) {
            return messages.getCommitLogMaxOffset();
        }
        return messages.confirmOffset();
    }

    // ---------------------------------------------------------------- internals

    /** Whether a message ending at {@code endOffset} has the replicas a send waits for. */
    private boolean isReplicated(long endOffset) {
        if (config.allAckInSyncStateSet()) {
            Set<Long> members = syncStateSet.effective();
            return members.size() <= 1 || 1 + ackedSlaves(endOffset, members).size() >= members.size();
        }
        return config.inSyncReplicas() <= 1 || 1 + ackedSlaves(endOffset, null).size() >= config.inSyncReplicas();
    }

    /** Distinct slave ids (members only, unless {@code members} is null) that acknowledged {@code endOffset}. */
    private Set<Long> ackedSlaves(long endOffset, Set<Long> members) {
        Set<Long> acked = new HashSet<>();
        for (MasterLink link : links) {
            long slaveId = link.slaveId();
            if (slaveId != localBrokerId && link.ackOffset() >= endOffset
                && (members == null || members.contains(slaveId))) {
                acked.add(slaveId);
            }
        }
        return acked;
    }

    private void maybeExpand(long slaveId, long ackOffset, long nowMs) {
        EpochEntry current = epochs.lastEntry();
        if (current == null) {
            return;
        }
        long confirmOffset = confirmOffset();
        syncStateSet.expand(slaveId, ackOffset, confirmOffset, current.startOffset(), nowMs).ifPresent(proposal -> {
            log.info("slave {} caught up at {} (confirm offset {}, epoch {} from {}): proposing SyncStateSet {}",
                slaveId, ackOffset, confirmOffset, current.epoch(), current.startOffset(), proposal);
            propose(proposal);
        });
    }

    /** Hands a proposal to the broker on the service's context, after the current event. */
    private void propose(Set<Long> proposal) {
        context.runOnContext(ignored -> {
            try {
                proposer.accept(proposal);
            } catch (RuntimeException e) {
                log.error("the broker's handler failed on SyncStateSet proposal {}", proposal, e);
            }
        });
    }
}
