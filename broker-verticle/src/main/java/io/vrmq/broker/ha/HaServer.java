package io.vrmq.broker.ha;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.remoting.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The master's side of replication: accepts slaves on haListenPort, streams the CommitLog to each
 * ({@link HaMasterConnection}), tracks the furthest acknowledged offset and answers SYNC_MASTER waits.
 * Runs on the context that created it; the store's writer thread only pokes it through {@link #onAppended}.
 */
public final class HaServer {
    private static final Logger log = LoggerFactory.getLogger(HaServer.class);
    private static final long TICK_MS = 100;

    private final Vertx vertx;
    private final Context context;
    private final StoreAccess store;
    private final HaConfig config;
    private final List<HaMasterConnection> connections = new ArrayList<>();
    private final ReplicaAckWaiters waiters = new ReplicaAckWaiters();
    private final AtomicBoolean isWakePending = new AtomicBoolean();
    private volatile boolean hasSlaves;
    private long maxAckedOffset = -1;
    private NetServer server;
    private long timerId = -1;

    public HaServer(Vertx vertx, StoreAccess store, HaConfig config) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.store = store;
        this.config = config;
    }

    /** Listens (plain) and starts the heartbeat/housekeeping/expiry tick; the bound port. */
    public Future<Integer> listen(String host, int port) {
        return listen(host, port, null);
    }

    /**
     * As {@link #listen(String, int)}, each slave's connection decided by {@code tls} (the broker's tls.server.mode:
     * permissive takes TLS and plain slaves, enforcing TLS ones only); null: plain only.
     */
    public Future<Integer> listen(String host, int port, ServerTls tls) {
        server = vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true));
        server.connectHandler(socket -> {
            if (tls != null) {
                tls.install(socket);
            }
            accept(socket);
        });
        store.onAppended(this::onAppended);
        timerId = vertx.setPeriodic(TICK_MS, id -> tick());
        return server.listen(port, host).map(bound -> {
            log.info("replication (HA) listening on {}:{}", host, bound.actualPort());
            return bound.actualPort();
        });
    }

    /**
     * SYNC_MASTER: completes when a slave has everything below {@code endOffset}. NOT_AVAILABLE at once when no slave
     * is connected or the nearest is more than haMaxGapNotInSync behind (RocketMQ's rule), TIMEOUT after slaveTimeout.
     * Any thread: a call from another context (a send on one of several connection event loops) hops to this
     * server's context, where the waiters live, and its future completes there.
     */
    public Future<SlaveAck> awaitSlave(long endOffset) {
        if (Vertx.currentContext() != context) {
            Promise<SlaveAck> ack = Promise.promise();
            context.runOnContext(ignored -> awaitSlaveHere(endOffset).onComplete(ack));
            return ack.future();
        }
        return awaitSlaveHere(endOffset);
    }

    private Future<SlaveAck> awaitSlaveHere(long endOffset) {
        if (connections.isEmpty() || endOffset - maxAckedOffset >= config.haMaxGapNotInSync()) {
            return Future.succeededFuture(SlaveAck.NOT_AVAILABLE);
        }
        if (maxAckedOffset >= endOffset) {
            return Future.succeededFuture(SlaveAck.OK);
        }
        return waiters.await(endOffset, System.currentTimeMillis() + config.slaveTimeoutMs());
    }

    /** The admin view: each slave's address, acknowledged offset and distance behind. On this server's context. */
    public List<Map<String, Object>> slaves() {
        long max = store.store().getCommitLogMaxOffset();
        List<Map<String, Object>> slaves = new ArrayList<>();
        for (HaMasterConnection connection : connections) {
            Map<String, Object> slave = new LinkedHashMap<>();
            slave.put("address", connection.address());
            slave.put("ackOffset", connection.ackOffset());
            slave.put("behindBytes", connection.ackOffset() < 0 ? max : Math.max(0, max - connection.ackOffset()));
            slaves.add(slave);
        }
        return slaves;
    }

    /** SYNC_MASTER sends waiting for a slave now. On this server's context. */
    public int pendingSyncSends() {
        return waiters.size();
    }

    public Future<Void> close() {
        vertx.cancelTimer(timerId);
        waiters.endAll(SlaveAck.NOT_AVAILABLE);
        List.copyOf(connections).forEach(connection -> connection.close("broker stopping"));
        return server == null ? Future.succeededFuture() : server.close();
    }

    void acked(long offset) {
        if (offset > maxAckedOffset) {
            maxAckedOffset = offset;
            waiters.release(endOffset -> endOffset <= offset);
        }
    }

    void removed(HaMasterConnection connection) {
        connections.remove(connection);
        hasSlaves = !connections.isEmpty();
        log.info("slave {} disconnected", connection.address());
    }

    private void accept(NetSocket socket) {
        HaMasterConnection connection = new HaMasterConnection(this, socket, store, config,
            System.currentTimeMillis());
        connections.add(connection);
        hasSlaves = true;
        connection.start();
    }

    /** Writer thread, after every append: one hop to the context however many appends come meanwhile. */
    private void onAppended(long maxOffset) {
        if (hasSlaves && isWakePending.compareAndSet(false, true)) {
            context.runOnContext(ignored -> {
                isWakePending.set(false);
                List.copyOf(connections).forEach(HaMasterConnection::wake);
            });
        }
    }

    private void tick() {
        long nowMs = System.currentTimeMillis();
        List.copyOf(connections).forEach(connection -> connection.tick(nowMs));
        waiters.expire(nowMs);
    }
}
