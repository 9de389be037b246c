package io.vrmq.ceiling;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;
import io.vrmq.store.format.HostAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The protocol ceiling: one verticle on one event loop with our codec and the broker's server options (as the broker
 * listens today), answering a NameServer's routes and a broker's sends, pulls, heartbeats and offsets from memory.
 * What the official client then reaches is the most any broker on this setup can give it: the figure
 * scripts/bench-vs-rocketmq.sh reports ours and Apache's against. Unknown codes get REQUEST_CODE_NOT_SUPPORTED.
 */
public final class CeilingVerticle extends VerticleBase {
    private static final int MAX_CONNECTIONS = 10_000;
    private static final long SHUTDOWN_GRACE_MS = 1_000;
    private static final int MIB = 1024 * 1024;

    private final CeilingOptions options;
    private RemotingServer server;
    private int boundPort;

    CeilingVerticle(CeilingOptions options) {
        this.options = options;
    }

    /** The port it listens on (after start; useful with --port 0). */
    int port() {
        return boundPort;
    }

    @Override
    public Future<?> start() {
        // The port must be known before the routes that name it: bind first, then answer with the bound address.
        RemotingJson json = new RemotingJson();
        RecordArena arena = new RecordArena(options.chunkMib() * MIB, options.maxStoredMib() / options.chunkMib());
        MemoryQueues queues = new MemoryQueues(arena, options.maxMessagesPerQueue(), options.defaultQueues());
        HeldPulls heldPulls = new HeldPulls(vertx, options.maxHeldPulls());
        CeilingAddress address = new CeilingAddress();
        ProcessorTable.Builder table = ProcessorTable.builder();
        new CeilingRoutes(json, queues, address).register(table);
        new CeilingClients(json, queues).register(table);
        new CeilingPulls(queues, heldPulls, options.maxMessagesPerPull()).register(table);
        new CeilingSends(queues, heldPulls, address).register(table);
        server = new RemotingServer(vertx, new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true),
            RemotingLimits.defaults(), MAX_CONNECTIONS, new AtomicInteger(), table.build(), RemotingObserver.NONE);
        return server.listen(options.host(), options.port()).onSuccess(port -> {
            boundPort = port;
            address.bound(options.host(), port);
        });
    }

    @Override
    public Future<?> stop() {
        return server == null ? Future.succeededFuture() : server.shutdown(SHUTDOWN_GRACE_MS);
    }

    /** Where the ceiling listens, known once it is bound. */
    static final class CeilingAddress {
        private volatile String text;
        private volatile HostAddress storeHost;

        void bound(String host, int port) {
            text = host + ":" + port;
            storeHost = HostAddress.of(new InetSocketAddress(host, port));
        }

        String text() {
            return text;
        }

        HostAddress storeHost() {
            return storeHost;
        }
    }
}
