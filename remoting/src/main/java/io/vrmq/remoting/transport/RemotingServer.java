package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vrmq.remoting.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A remoting listener: accepts connections and hands their requests to the processor table. Create and use it
 * from a verticle; several verticle instances listening on one port share it as Vert.x shares {@link NetServer}s,
 * and should then share one {@code connectionCount} so that {@code maxConnections} holds for the port.
 */
public final class RemotingServer {
    private static final Logger log = LoggerFactory.getLogger(RemotingServer.class);

    private final Vertx vertx;
    private final NetServerOptions options;
    private final RemotingLimits limits;
    private final int maxConnections;
    private final ProcessorTable processors;
    private final RemotingObserver observer;
    private final AtomicInteger connectionCount;
    private final ServerTls tls;
    private NetServer server;

    public RemotingServer(Vertx vertx, NetServerOptions options, RemotingLimits limits, int maxConnections,
                          AtomicInteger connectionCount, ProcessorTable processors, RemotingObserver observer) {
        this(vertx, options, limits, maxConnections, connectionCount, processors, observer, null);
    }

    /** @param tls TLS on this port (permissive or enforcing), or null for plain only */
    public RemotingServer(Vertx vertx, NetServerOptions options, RemotingLimits limits, int maxConnections,
                          AtomicInteger connectionCount, ProcessorTable processors, RemotingObserver observer,
                          ServerTls tls) {
        this.tls = tls;
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("invalid maxConnections: " + maxConnections);
        }
        this.vertx = vertx;
        this.options = options;
        this.limits = limits;
        this.maxConnections = maxConnections;
        this.connectionCount = connectionCount;
        this.processors = processors;
        this.observer = observer;
    }

    /** Starts listening; completes with the bound port (useful when {@code port} is 0). */
    public Future<Integer> listen(String host, int port) {
        server = vertx.createNetServer(options);
        return server.connectHandler(this::accept).listen(port, host).map(NetServer::actualPort);
    }

    public int connectionCount() {
        return connectionCount.get();
    }

    /**
     * Stops accepting, lets in-flight requests finish for up to {@code graceMs} (each connection closes once its
     * requests are answered, an idle one at once), then closes what is left.
     */
    public Future<Void> shutdown(long graceMs) {
        return server == null ? Future.succeededFuture() : server.shutdown(graceMs, TimeUnit.MILLISECONDS);
    }

    private void accept(NetSocket socket) {
        if (connectionCount.incrementAndGet() > maxConnections) {
            connectionCount.decrementAndGet();
            log.warn("refusing connection from {}: maxConnections {} reached", socket.remoteAddress(),
                maxConnections);
            socket.close();
            return;
        }
        if (tls != null) {
            tls.install(socket);
        }
        FlushBatching.install(socket, limits.maxWritesPerFlush());
        RemotingConnection connection = RemotingConnection.open(vertx, socket, limits, processors, observer);
        connection.onClose(closed -> connectionCount.decrementAndGet());
    }
}
