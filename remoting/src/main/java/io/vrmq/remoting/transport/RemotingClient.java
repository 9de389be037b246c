package io.vrmq.remoting.transport;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * Outgoing remoting calls to "host:port" addresses: one connection per address, opened on first use, reused, and
 * opened again after it closes. Requests the peer sends us over these connections go to {@code processors}.
 * Thread-safe: any thread may call it; {@link #invokeSync} refuses to run on an event loop.
 */
public final class RemotingClient {
    private final Vertx vertx;
    private final NetClient netClient;
    private final RemotingLimits limits;
    private final ProcessorTable processors;
    private final RemotingObserver observer;
    private final Map<String, Future<RemotingConnection>> connections = new ConcurrentHashMap<>();
    private final UnaryOperator<RemotingCommand> outgoing;

    public RemotingClient(Vertx vertx, NetClientOptions options, RemotingLimits limits, ProcessorTable processors,
                          RemotingObserver observer) {
        this(vertx, options, limits, processors, observer, UnaryOperator.identity());
    }

    /**
     * @param outgoing applied to every request this client sends (the broker signs its own requests with its
     *                 innerClientAuthenticationCredentials); must be thread-safe and cheap
     */
    public RemotingClient(Vertx vertx, NetClientOptions options, RemotingLimits limits, ProcessorTable processors,
                          RemotingObserver observer, UnaryOperator<RemotingCommand> outgoing) {
        this.outgoing = outgoing;
        this.vertx = vertx;
        this.netClient = vertx.createNetClient(options);
        this.limits = limits;
        this.processors = processors;
        this.observer = observer;
    }

    public RemotingClient(Vertx vertx, RemotingLimits limits) {
        this(vertx, new NetClientOptions().setConnectTimeout(3_000).setTcpNoDelay(true), limits,
            ProcessorTable.empty(), RemotingObserver.NONE);
    }

    /**
     * The open connection to {@code address}, connecting if there is none. The cleanup listeners are added only once
     * the attempt is in the map: a connect that fails at once completes them at once, and inside computeIfAbsent that
     * would be a recursive update of the map. Two threads racing for one address keep the first attempt; the other's
     * connection, if it opens, is closed.
     */
    public Future<RemotingConnection> connection(String address) {
        Future<RemotingConnection> existing = connections.get(address);
        if (existing != null) {
            return existing;
        }
        Future<RemotingConnection> connecting = connect(address);
        Future<RemotingConnection> raced = connections.putIfAbsent(address, connecting);
        if (raced != null) {
            connecting.onSuccess(RemotingConnection::close);
            return raced;
        }
        connecting.onComplete(outcome -> {
            if (outcome.failed()) {
                connections.remove(address, connecting);
            } else {
                outcome.result().onClose(closed -> connections.remove(address, connecting));
            }
        });
        return connecting;
    }

    public Future<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs) {
        return connection(address).compose(connection -> connection.invoke(outgoing.apply(request), timeoutMs));
    }

    public Future<RemotingCommand> invoke(String address, RemotingCommand request) {
        return invoke(address, request, limits.requestTimeoutMs());
    }

    public Future<Void> invokeOneway(String address, RemotingCommand request) {
        return connection(address).compose(connection -> connection.invokeOneway(outgoing.apply(request)));
    }

    /**
     * Blocking facade for callers on their own threads (tests, tools, the synchronous client API).
     *
     * @throws IllegalStateException on an event loop, where blocking is forbidden
     */
    public RemotingCommand invokeSync(String address, RemotingCommand request, long timeoutMs)
        throws InterruptedException, ExecutionException, TimeoutException {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("invokeSync called on an event loop thread");
        }
        return invoke(address, request, timeoutMs).toCompletionStage().toCompletableFuture()
            .get(timeoutMs + limits.requestTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    /** Closes the connection to {@code address} if there is one; the next call reconnects. */
    public Future<Void> disconnect(String address) {
        Future<RemotingConnection> connection = connections.remove(address);
        return connection == null ? Future.succeededFuture() : connection.compose(RemotingConnection::close);
    }

    public Future<Void> close() {
        connections.clear();
        return netClient.close();
    }

    private Future<RemotingConnection> connect(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return Future.failedFuture(new IllegalArgumentException("address is not host:port: " + address));
        }
        String host = address.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Future.failedFuture(new IllegalArgumentException("address is not host:port: " + address));
        }
        return netClient.connect(port, host)
            .map(socket -> RemotingConnection.open(vertx, socket, limits, processors, observer));
    }
}
