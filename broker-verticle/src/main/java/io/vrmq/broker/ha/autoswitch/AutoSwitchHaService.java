package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.broker.ha.HaConfig;
import io.vrmq.broker.ha.HaLinkTls;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.broker.ha.SlaveAck;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.store.MessageStore;
import io.vrmq.store.epoch.EpochEntry;
import io.vrmq.store.epoch.EpochFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Controller-mode replication (RocketMQ 5.5.0's AutoSwitchHAService): one broker switches between master and slave
 * as the controller decides. As master it accepts slave links ({@link MasterLink}) on the HA port, tracks the
 * SyncStateSet ({@link SyncStateSetTracker}) and the confirm offset and answers sends waiting for replicas; as slave
 * it follows its master ({@link SlaveFollower}). The epoch file records which master epoch wrote which range.
 *
 * <p>Confirm offset (what consumers may see, and what a send with allAckInSyncStateSet waits for): on a master, the
 * max offset when the SyncStateSet is the master alone or allAckInSyncStateSet is false; otherwise the lowest
 * acknowledgement of the set's members (kept as it was while a member has no link). On a slave, min(the master's,
 * its own max offset). The store's dispatch gate follows it unless readUnCommitted (on a master only with allAck).
 *
 * <p>Threads: state is confined to the context that created the service; methods returning futures (and the
 * setters) hop onto it when called elsewhere; the readers ({@link #confirmOffset}, {@link #syncStateSet},
 * {@link #status} ...) may be called from any thread. Store work runs on StoreAccess's writer thread, reads on its
 * reader pool. The writer thread only pokes the service after appends.
 */
public final class AutoSwitchHaService {
    /** The role the controller last gave this broker. */
    public enum Role { NONE, MASTER, SLAVE }

    private static final long TICK_MS = 100;
    private static final Logger log = LoggerFactory.getLogger(AutoSwitchHaService.class);

    private final Vertx vertx;
    private final Context context;
    private final StoreAccess store;
    private final EpochFile epochs;
    private final HaConfig ha;
    private final AutoSwitchConfig config;
    private final SyncStateSetTracker syncStateSet;
    private final MasterReplicas master;
    private final SlaveFollower follower;
    private final AtomicBoolean isWakePending = new AtomicBoolean();
    private volatile Role role = Role.NONE;
    private volatile long localBrokerId = -1;
    private volatile int roleEpoch = -1;
    private NetServer server;
    private long timerId = -1;

    /** Create it on the context it is to live on (the broker's); nothing runs until a role is given. */
    public AutoSwitchHaService(Vertx vertx, StoreAccess store, EpochFile epochs, HaConfig ha,
                               AutoSwitchConfig config) {
        this(vertx, store, epochs, ha, config, HaLinkTls.plain());
    }

    /** @param tls how this broker, as a slave, connects to its master's HA port */
    public AutoSwitchHaService(Vertx vertx, StoreAccess store, EpochFile epochs, HaConfig ha,
                               AutoSwitchConfig config, HaLinkTls tls) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.store = store;
        this.epochs = epochs;
        this.ha = ha;
        this.config = config;
        this.syncStateSet = new SyncStateSetTracker(ha.haSendHeartbeatIntervalMs());
        this.master = new MasterReplicas(context, store, epochs, ha, config, syncStateSet);
        this.follower = new SlaveFollower(vertx, store, epochs, ha, config, tls.clientOptions());
        store.onAppended(this::onAppended);
        store.store().setMinOffsetListener(epochs::truncatePrefixBelow);
        store.afterQueuedWrites(() -> epochs.truncatePrefixBelow(store.store().getCommitLogMinOffset()))
            .onFailure(error -> log.error("cannot prune epoch file {}", epochs.path(), error));
        context.runOnContext(ignored -> timerId = vertx.setPeriodic(TICK_MS, id -> tick()));
    }

    /** Opens the HA port (plain); only a master accepts slaves on it. The bound port. */
    public Future<Integer> listen(String host, int port) {
        return listen(host, port, null);
    }

    /** As {@link #listen(String, int)}, each connection decided by {@code tls} (tls.server.mode); null: plain. */
    public Future<Integer> listen(String host, int port, ServerTls tls) {
        return onContext(() -> {
            server = vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true));
            server.connectHandler(socket -> {
                if (tls != null) {
                    tls.install(socket);
                }
                master.accept(socket);
            });
            return server.listen(port, host).map(bound -> {
                log.info("controller-mode replication (HA) listening on {}:{}", host, bound.actualPort());
                return bound.actualPort();
            });
        });
    }

    /**
     * Becomes master of {@code masterEpoch} with the controller's SyncStateSet. Refused (failed future) when the
     * epoch is below the last one in the epoch file. A broker already master under the same id only records the new
     * epoch. Otherwise: slave links and the follower are dropped; the confirm offset is computed; (masterEpoch, max
     * offset) is appended to the epoch file (kept as it is if masterEpoch is already its last); the store switches
     * to own appends (after its dispatcher caught up) and its dispatch gate is set for the master role. A torn tail
     * cannot exist (the store never publishes part of a record), so there is nothing to truncate.
     */
    public Future<Void> changeToMaster(long brokerId, int masterEpoch, SyncStateSetBody syncStateSetBody) {
        return onContext(() -> {
            Future<Void> refused = refuseOlder(masterEpoch, "master");
            if (refused != null) {
                return refused;
            }
            syncStateSet.adopt(syncStateSetBody.syncStateSet(), syncStateSetBody.syncStateSetEpoch());
            if (role == Role.MASTER && localBrokerId == brokerId) {
                return store.afterQueuedWrites(() -> appendEpoch(masterEpoch)).map(start -> {
                    roleEpoch = masterEpoch;
                    master.refreshConfirmOffset();
                    log.info("still master (broker id {}), now of epoch {}; epochs {}", brokerId, masterEpoch,
                        epochs.entries());
                    return null;
                });
            }
            follower.stop();
            master.deactivate("this broker becomes master");
            role = Role.NONE;
            localBrokerId = brokerId;
            long confirmOffset = master.computeConfirmOffset(brokerId);
            return store.afterQueuedWrites(() -> {
                MessageStore messages = store.store();
                messages.setConfirmOffset(confirmOffset);
                long start = appendEpoch(masterEpoch);
                messages.switchToOwnAppends();
                messages.setDispatchGatedByConfirmOffset(config.gatesDispatch(true));
                return start;
            }).map(start -> {
                role = Role.MASTER;
                roleEpoch = masterEpoch;
                master.activate(brokerId);   // slaves are accepted once the epoch is recorded and appends flow
                master.refreshConfirmOffset();
                log.info("master (broker id {}) of epoch {} from offset {}; SyncStateSet {} (epoch {}); epochs {}",
                    brokerId, masterEpoch, start, syncStateSet.local(), syncStateSet.epoch(), epochs.entries());
                return null;
            });
        });
    }

    /**
     * Becomes a slave of the master of {@code masterEpoch}, as controller id {@code brokerId}. Refused when the epoch
     * is below the last in the epoch file. Slave links close, waiting sends end NOT_AVAILABLE, the store switches to
     * replicated bytes and its gate is set for the slave role; then the follower connects to
     * {@code masterHaAddress} (null: once {@link #updateMasterHaAddress} names it), handshakes, truncates to the
     * consistent point and follows. Already following that same address: only the epoch is recorded.
     */
    public Future<Void> changeToSlave(long brokerId, int masterEpoch, String masterHaAddress) {
        return onContext(() -> {
            Future<Void> refused = refuseOlder(masterEpoch, "slave");
            if (refused != null) {
                return refused;
            }
            if (role == Role.SLAVE && localBrokerId == brokerId && masterHaAddress != null
                && masterHaAddress.equals(follower.target())) {
                roleEpoch = masterEpoch;
                return Future.succeededFuture();
            }
            follower.stop();
            master.deactivate("this broker becomes a slave");
            role = Role.SLAVE;
            localBrokerId = brokerId;
            roleEpoch = masterEpoch;
            return store.afterQueuedWrites(() -> {
                MessageStore messages = store.store();
                messages.switchToReplica();
                messages.setDispatchGatedByConfirmOffset(config.gatesDispatch(false));
                return null;
            }).map(ignored -> {
                if (role == Role.SLAVE && localBrokerId == brokerId) {
                    follower.start(brokerId, masterHaAddress);
                }
                log.info("slave (broker id {}) of epoch {}, master HA {}; epochs {}", brokerId, masterEpoch,
                    masterHaAddress, epochs.entries());
                return null;
            });
        });
    }

    /** A slave (re)connects at once to a changed master HA address. Any thread. */
    public void updateMasterHaAddress(String masterHaAddress) {
        runOnContext(() -> {
            if (role == Role.SLAVE) {
                follower.updateTarget(masterHaAddress);
            }
        });
    }

    /**
     * Master: receives each SyncStateSet change this broker proposes on its own, on this service's context: a slave
     * caught up (expansion), or a member's link dropped. The broker sends it to the controller (ALTER, 1001) and
     * hands the answer to {@link #setSyncStateSet}. Set once.
     */
    public void onSyncStateSetProposal(Consumer<Set<Long>> proposalHandler) {
        master.setProposer(Objects.requireNonNull(proposalHandler, "proposalHandler"));
    }

    /**
     * Master, every checkSyncStateSetPeriod: the set without the slaves that have no link or were not caught up for
     * haMaxTimeSlaveNotCatchup (this broker always in it). When it differs from {@link #syncStateSet()}, the broker
     * proposes it to the controller. Any thread.
     */
    public Set<Long> maybeShrinkSyncStateSet() {
        if (role != Role.MASTER) {
            return syncStateSet.local();
        }
        return syncStateSet.shrink(master.linkedSlaveIds(), localBrokerId, System.currentTimeMillis(),
            config.haMaxTimeSlaveNotCatchupMs());
    }

    /** Adopts the controller's SyncStateSet (unless its epoch is older than the one held). */
    public void setSyncStateSet(Set<Long> ids, int syncStateSetEpoch) {
        runOnContext(() -> {
            if (syncStateSet.adopt(ids, syncStateSetEpoch) && role == Role.MASTER) {
                master.refreshConfirmOffset();
            }
        });
    }

    /** The SyncStateSet as the controller last answered (a dropped slave already removed). Any thread. */
    public Set<Long> syncStateSet() {
        return syncStateSet.local();
    }

    public int syncStateSetEpoch() {
        return syncStateSet.epoch();
    }

    /** Master: the SyncStateSet (counted as RocketMQ does while a change is in flight) has minInSyncReplicas. */
    public boolean hasEnoughInSyncReplicas() {
        return syncStateSet.inSyncCount() >= config.minInSyncReplicas();
    }

    /**
     * Master, send path, after the append: IN_SYNC_REPLICAS_NOT_ENOUGH when the set is smaller than
     * minInSyncReplicas (check {@link #hasEnoughInSyncReplicas()} before appending to refuse as RocketMQ does); with
     * allAckInSyncStateSet OK once every set member acknowledged {@code endOffset}, otherwise once inSyncReplicas
     * replicas (the master included) have it; TIMEOUT after slaveTimeout; NOT_AVAILABLE when not master.
     */
    public Future<SlaveAck> awaitReplicas(long endOffset) {
        return onContext(() -> role == Role.MASTER ? master.awaitReplicas(endOffset)
            : Future.succeededFuture(SlaveAck.NOT_AVAILABLE));
    }

    /** The confirm offset (see class comment). Any thread. */
    public long confirmOffset() {
        return role == Role.MASTER ? master.confirmOffset() : store.store().confirmOffset();
    }

    public List<EpochEntry> epochEntries() {
        return epochs.entries();
    }

    /** Epoch of the newest entry in the epoch file (-1 when empty): what the controller heartbeat reports. */
    public int lastEpoch() {
        return epochs.lastEpoch();
    }

    public Role role() {
        return role;
    }

    /** Slave: the link to the master is up. */
    public boolean isMasterLinkUp() {
        return role == Role.SLAVE && follower.isConnected();
    }

    /** Slave: end offset of the last frame from the master (-1 before any). */
    public long masterOffsetSeen() {
        return follower.masterOffsetSeen();
    }

    /** The admin view: role, epochs, confirm offset, SyncStateSet and per-slave progress, or the master link. */
    public Map<String, Object> status() {
        MessageStore messages = store.store();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("role", role.name());
        status.put("brokerId", localBrokerId);
        status.put("masterEpoch", roleEpoch);
        status.put("epochs", epochs.entries().stream().map(entry -> Map.of("epoch", entry.epoch(), "startOffset",
            entry.startOffset(), "endOffset", entry.endOffset())).toList());
        status.put("commitLogMaxOffset", messages.getCommitLogMaxOffset());
        status.put("confirmOffset", confirmOffset());
        status.put("dispatchedOffset", messages.dispatchedOffset());
        status.put("dispatchGated", messages.isDispatchGatedByConfirmOffset());
        status.put("syncStateSet", syncStateSet.local());
        status.put("syncStateSetEpoch", syncStateSet.epoch());
        status.put("proposedSyncStateSet", syncStateSet.proposed());
        if (role == Role.MASTER) {
            status.put("slaves", master.slaveViews());
            status.put("pendingSyncSends", master.pendingSyncSends());
        } else if (role == Role.SLAVE) {
            status.put("masterHaAddress", follower.target());
            status.put("linkState", follower.stateName());
            status.put("connected", follower.isConnected());
            status.put("masterOffsetSeen", follower.masterOffsetSeen());
            status.put("lastReadTimestamp", follower.lastReadMs());
        }
        return status;
    }

    /** The GET_BROKER_HA_STATUS (907) body, RocketMQ's HARuntimeInfo. Any thread. */
    public HaRuntimeInfoBody haRuntimeInfo() {
        MessageStore messages = store.store();
        long maxOffset = messages.getCommitLogMaxOffset();
        if (role != Role.MASTER) {
            HaRuntimeInfoBody.HaClientInfo client = new HaRuntimeInfoBody.HaClientInfo(follower.target(),
                follower.transferredBytesPerSecond(), maxOffset, follower.lastReadMs(), follower.lastWriteMs(),
                messages.stats().commitLogFlushedOffset());
            return new HaRuntimeInfoBody(false, 0, 0, List.of(), client);
        }
        return new HaRuntimeInfoBody(true, maxOffset, syncStateSet.local().size() - 1,
            master.connectionInfos(maxOffset), HaRuntimeInfoBody.HaClientInfo.NONE);
    }

    /** Stops everything: links, follower, port; waiting sends end NOT_AVAILABLE. The store stays open. */
    public Future<Void> close() {
        return onContext(() -> {
            vertx.cancelTimer(timerId);
            store.onAppended(maxOffset -> {
            });
            master.deactivate("broker stopping");
            Future<Void> followerClosed = follower.close();
            Future<Void> serverClosed = server == null ? Future.succeededFuture() : server.close();
            return Future.all(followerClosed, serverClosed).mapEmpty();
        });
    }

    // ---------------------------------------------------------------- internals (service context)

    private void tick() {
        long nowMs = System.currentTimeMillis();
        master.tick(nowMs);
        follower.tick(nowMs);
    }

    /** Writer thread, after every append: one hop to the context however many appends come meanwhile. */
    private void onAppended(long maxOffset) {
        if (master.isActive() && isWakePending.compareAndSet(false, true)) {
            context.runOnContext(ignored -> {
                isWakePending.set(false);
                master.onAppended();
            });
        }
    }

    /**
     * Writer thread: records that this broker writes {@code epoch} from the max offset on; returns the epoch's start.
     * An epoch already last in the file is kept as it is: the controller gives a new master a new epoch, so the same
     * epoch means this master goes on (RocketMQ drops and re-appends it at the current max offset, which relabels
     * the records it already wrote in that epoch and leaves a slave holding the original start with no epoch in
     * common). An older epoch cannot reach here (refused first).
     */
    private long appendEpoch(int epoch) {
        EpochEntry last = epochs.lastEntry();
        if (last != null && last.epoch() == epoch) {
            log.info("epoch {} already recorded from {}: kept", epoch, last.startOffset());
            return last.startOffset();
        }
        long start = store.store().getCommitLogMaxOffset();
        if (!epochs.append(epoch, start)) {
            log.info("epoch {} at {} merged into {}: nothing was written since it began", epoch, start,
                epochs.lastEntry());
        }
        return start;
    }

    private <T> Future<T> refuseOlder(int masterEpoch, String what) {
        int last = epochs.lastEpoch();
        if (masterEpoch < last) {
            return Future.failedFuture(new IllegalStateException("cannot become " + what + " of epoch " + masterEpoch
                + ": below the last epoch " + last + " in " + epochs.path()));
        }
        return null;
    }

    private void runOnContext(Runnable task) {
        if (Vertx.currentContext() == context) {
            task.run();
        } else {
            context.runOnContext(ignored -> task.run());
        }
    }

    private <T> Future<T> onContext(Supplier<Future<T>> task) {
        if (Vertx.currentContext() == context) {
            return run(task);
        }
        Promise<T> promise = Promise.promise();
        context.runOnContext(ignored -> run(task).onComplete(promise));
        return promise.future();
    }

    private static <T> Future<T> run(Supplier<Future<T>> task) {
        try {
            return task.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }
}
