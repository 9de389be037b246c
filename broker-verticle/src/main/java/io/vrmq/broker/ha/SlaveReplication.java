package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.store.StoreAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;

/**
 * A slave's replication: the {@link HaClient} that follows the master's CommitLog (to haMasterAddress when set,
 * else to the HA address the NameServers name) and the periodic {@link SlaveSynchronizer} round.
 */
public final class SlaveReplication implements Replication {
    private static final Logger log = LoggerFactory.getLogger(SlaveReplication.class);

    private final Vertx vertx;
    private final BrokerConfig config;
    private final StoreAccess store;
    private final HaClient client;
    private volatile String masterAddr;
    private volatile String learnedHaAddr;
    private long syncTimerId = -1;
    private SlaveSynchronizer synchronizer;

    public SlaveReplication(Vertx vertx, BrokerConfig config, StoreAccess store) {
        this(vertx, config, store, HaLinkTls.plain());
    }

    public SlaveReplication(Vertx vertx, BrokerConfig config, StoreAccess store, HaLinkTls tls) {
        this.vertx = vertx;
        this.config = config;
        this.store = store;
        this.client = new HaClient(vertx, store, config.ha(), this::masterHaAddress, tls.clientOptions());
    }

    /** Starts following the master and copying its metadata every slaveSyncMetadataInterval. */
    public void start(SlaveSynchronizer synchronizer) {
        this.synchronizer = synchronizer;
        client.start();
        syncTimerId = vertx.setPeriodic(config.ha().slaveSyncMetadataIntervalMs(), id -> {
            String master = masterAddr;
            if (master != null) {
                synchronizer.syncFrom(master);
            }
        });
    }

    @Override
    public boolean isSlave() {
        return true;
    }

    @Override
    public boolean isMasterAlive() {
        return client.isConnected();
    }

    @Override
    public Future<SlaveAck> awaitSlave(long endOffset) {
        return Future.succeededFuture(SlaveAck.NOT_AVAILABLE);
    }

    @Override
    public void masterLearned(String masterAddr, String masterHaAddr) {
        boolean isNewMaster = masterAddr != null && !Objects.equals(this.masterAddr, masterAddr);
        if (masterAddr != null) {
            this.masterAddr = masterAddr;
        }
        if (masterHaAddr != null) {
            this.learnedHaAddr = masterHaAddr;
        }
        if (isNewMaster) {
            log.info("master of {} is {} (HA {})", config.brokerName(), masterAddr, masterHaAddr);
            if (synchronizer != null) {
                synchronizer.syncFrom(masterAddr);   // at once: a new slave should not wait a whole interval
            }
        }
    }

    @Override
    public String masterAddr() {
        return masterAddr;
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = ReplicationStatus.common(config.classicRole(), store);
        status.put("masterAddr", masterAddr);
        status.put("haMasterAddress", masterHaAddress());
        status.put("connected", client.isConnected());
        status.put("replicatedOffset", store.store().getCommitLogMaxOffset());
        status.put("masterOffsetSeen", client.masterOffsetSeen());
        return status;
    }

    @Override
    public Future<Void> stop() {
        vertx.cancelTimer(syncTimerId);
        return client.close();
    }

    private String masterHaAddress() {
        String configured = config.ha().haMasterAddress();
        return configured.isBlank() ? learnedHaAddr : configured;
    }
}
