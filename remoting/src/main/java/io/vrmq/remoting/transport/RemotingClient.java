package io.vrmq.remoting.transport;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.remoting.protocol.RemotingCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ConnectException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * Outgoing remoting calls to "host:port" addresses: one connection per address, opened on first use, reused, and
 * opened again after it closes. Requests the peer sends us over these connections go to {@code processors}.
 * <p>With TLS fallback options, a plain connection that the server closes before answering anything (what a server in
 * TLS enforcing mode does with a plain first byte) makes this client use TLS for that address from then on, and the
 * request that found out is sent again over TLS (it reached no request processor of an enforcing server; after a
 * crash at that moment it may have, as after any resend: remoting is at least once). So outgoing connections reach
 * an enforcing server even when this role was not told to use TLS. A TLS connection chosen that way that does not
 * open (the server came back in plain mode) turns the address back to plain, and that request is sent again too.
 * <p>Thread-safe: any thread may call it; {@link #invokeSync} refuses to run on an event loop.
 */
public final class RemotingClient {
    private static final Logger log = LoggerFactory.getLogger(RemotingClient.class);

    private final Vertx vertx;
    private final NetClient netClient;
    private final RemotingLimits limits;
    private final ProcessorTable processors;
    private final RemotingObserver observer;
    private final Map<String, Future<RemotingConnection>> connections = new ConcurrentHashMap<>();
    private final UnaryOperator<RemotingCommand> outgoing;
    private final NetClient tlsClient;
    private final Set<String> tlsAddresses = ConcurrentHashMap.newKeySet();

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
        this(vertx, options, null, limits, processors, observer, outgoing);
    }

    /**
     * @param tlsFallback TLS options for addresses whose server turns out to require TLS (see the class comment), or
     *                    null: {@code options} only
     * @param outgoing    applied to every request this client sends; must be thread-safe and cheap
     */
    public RemotingClient(Vertx vertx, NetClientOptions options, NetClientOptions tlsFallback, RemotingLimits limits,
                          ProcessorTable processors, RemotingObserver observer,
                          UnaryOperator<RemotingCommand> outgoing) {
        this.outgoing = outgoing;
        this.vertx = vertx;
        this.netClient = vertx.createNetClient(options);
        this.tlsClient = tlsFallback == null || options.isSsl() ? null : vertx.createNetClient(tlsFallback);
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
        if (tlsClient == null) {
            // No TLS fallback to switch to: the direct path, without the transform and recover of every call.
            return connection(address).compose(connection -> connection.invoke(outgoing.apply(request), timeoutMs));
        }
        return invoke(address, request, timeoutMs, true);
    }

    /** {@code mayRetry}: whether a refusal that says "the other transport" may switch it and resend, once. */
    private Future<RemotingCommand> invoke(String address, RemotingCommand request, long timeoutMs,
                                           boolean mayRetry) {
        Future<RemotingConnection> opened = connection(address);
        return opened.transform(connected -> {
            if (connected.failed()) {
                return mayRetry && isTlsRefused(address, connected.cause())
                    ? invoke(address, request, timeoutMs, false) : Future.failedFuture(connected.cause());
            }
            RemotingConnection connection = connected.result();
            return connection.invoke(outgoing.apply(request), timeoutMs).recover(failure -> {
                if (!mayRetry || !isPlainRefused(address, connection, failure)) {
                    return Future.failedFuture(failure);
                }
                connections.remove(address, opened);
                return invoke(address, request, timeoutMs, false);
            });
        });
    }

    /** Our plain connection was closed before any answer (what an enforcing server does): use TLS from now on. */
    private boolean isPlainRefused(String address, RemotingConnection connection, Throwable failure) {
        if (!(failure instanceof ConnectionClosedException) || connection.hasReceived() || connection.isSsl()
            || !tlsAddresses.add(address)) {
            return false;
        }
        log.info("{} closed a plain connection before answering: it requires TLS; using TLS for it from now on",
            address);
        return true;
    }

    /**
     * A TLS connection we chose after such a refusal did not open for another reason than nobody listening: the
     * server (restarted in plain mode, say; or it had merely crashed the first time) does not take TLS: plain again.
     */
    private boolean isTlsRefused(String address, Throwable failure) {
        if (failure instanceof ConnectException || !tlsAddresses.remove(address)) {
            return false;
        }
        log.info("{} refused a TLS connection ({}): plain for it again", address, failure.toString());
        return true;
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
        return tlsClient == null ? netClient.close() : Future.all(netClient.close(), tlsClient.close()).mapEmpty();
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
        NetClient client = tlsClient != null && tlsAddresses.contains(address) ? tlsClient : netClient;
        return client.connect(port, host)
            .map(socket -> RemotingConnection.open(vertx, socket, limits, processors, observer));
    }
}
