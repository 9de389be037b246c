package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.store.StoreAccess;

import java.util.Map;

/** A master's replication: the {@link HaServer} that slaves follow. */
public final class MasterReplication implements Replication {
    private final BrokerConfig config;
    private final StoreAccess store;
    private final HaServer server;

    public MasterReplication(BrokerConfig config, StoreAccess store, HaServer server) {
        this.config = config;
        this.store = store;
        this.server = server;
    }

    @Override
    public boolean isSlave() {
        return false;
    }

    @Override
    public boolean isMasterAlive() {
        return false;
    }

    @Override
    public Future<SlaveAck> awaitSlave(long endOffset) {
        return server.awaitSlave(endOffset);
    }

    @Override
    public void masterLearned(String masterAddr, String masterHaAddr) {
    }

    @Override
    public String masterAddr() {
        return null;
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = ReplicationStatus.common(config.classicRole(), store);
        status.put("slaves", server.slaves());
        status.put("pendingSyncSends", server.pendingSyncSends());
        return status;
    }

    @Override
    public Future<Void> stop() {
        return server.close();
    }
}
