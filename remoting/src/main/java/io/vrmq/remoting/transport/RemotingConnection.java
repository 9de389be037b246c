package io.vrmq.remoting.transport;

import io.netty.buffer.ByteBuf;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.MalformedFrameException;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One remoting connection, either side: RocketMQ connections are symmetric, so both ends send requests (the broker
 * notifies clients, clients call brokers) and both answer them.
 *
 * <p>Inbound frames are read and dispatched on the socket's event loop. {@link #invoke} and {@link #invokeOneway}
 * may be called from any thread: frames are written from the socket's own context, so the head and body of two
 * commands never interleave.
 *
 * <p>When its server shuts down (Vert.x's graceful {@code NetServer.shutdown}), a connection closes as soon as every
 * request it read so far has been answered, at once when none is in process: without this an idle client would hold
 * the shutdown for the whole grace period.
 */
public final class RemotingConnection {
    private static final Logger log = LoggerFactory.getLogger(RemotingConnection.class);

    private final Vertx vertx;
    private final Context context;
    private final NetSocket socket;
    private final RemotingLimits limits;
    private final ProcessorTable processors;
    private final RemotingObserver observer;
    private final String remoteAddress;
    private final FrameReader reader;
    private final AtomicInteger nextOpaque = new AtomicInteger();
    private final Map<Integer, PendingRequest> pending = new ConcurrentHashMap<>();
    private final List<Handler<RemotingConnection>> closeHandlers = new CopyOnWriteArrayList<>();
    private final Promise<Void> closed = Promise.promise();
    /** Requests read and not yet answered (one-way ones until their processor completes). */
    private final AtomicInteger requestsInProcess = new AtomicInteger();
    private InetSocketAddress remoteInetSocketAddress;
    private volatile boolean isClosed;
    /** Whether any frame came from the peer: a server that closes before one may want TLS ({@link RemotingClient}). */
    private volatile boolean hasReceived;
    private volatile boolean isShuttingDown;

    private RemotingConnection(Vertx vertx, Context context, NetSocket socket, RemotingLimits limits,
                               ProcessorTable processors, RemotingObserver observer) {
        this.vertx = vertx;
        this.context = context;
        this.socket = socket;
        this.limits = limits;
        this.processors = processors;
        this.observer = observer;
        this.remoteAddress = String.valueOf(socket.remoteAddress());
        this.reader = new FrameReader(limits.maxFrameBytes(), this::onFrame, this::onMalformed);
    }

    /** Wraps a freshly connected socket; call on the socket's context. */
    public static RemotingConnection open(Vertx vertx, NetSocket socket, RemotingLimits limits,
                                          ProcessorTable processors, RemotingObserver observer) {
        RemotingConnection connection = new RemotingConnection(vertx, vertx.getOrCreateContext(), socket, limits,
            processors, observer);
        socket.handler(connection.reader);
        socket.closeHandler(ignored -> connection.onClose());
        socket.shutdownHandler(ignored -> connection.onShutdown());
        socket.exceptionHandler(error -> log.debug("connection {}: {}", connection.remoteAddress, error.toString()));
        observer.connectionOpened();
        return connection;
    }

    /** The peer's address (host and port), as the socket reports it. */
    public io.vertx.core.net.SocketAddress remoteSocketAddress() {
        return socket.remoteAddress();
    }

    /**
     * The peer's address as an {@link InetSocketAddress} (a stored message's born host), made once: building it
     * parses the host string, and the broker needs it for every send.
     */
    public InetSocketAddress remoteInetSocketAddress() {
        InetSocketAddress address = remoteInetSocketAddress;
        if (address == null) {
            io.vertx.core.net.SocketAddress peer = socket.remoteAddress();
            String host = peer.hostAddress() != null ? peer.hostAddress() : peer.host();
            address = new InetSocketAddress(host, Math.max(peer.port(), 0));
            remoteInetSocketAddress = address;   // a race builds equal immutable values: no lock needed
        }
        return address;
    }

    /** This side's address (host and port), as the socket reports it. */
    public io.vertx.core.net.SocketAddress localSocketAddress() {
        return socket.localAddress();
    }

    /** "host:port" of the peer, as the socket reports it. */
    public String remoteAddress() {
        return remoteAddress;
    }

    public boolean isClosed() {
        return isClosed;
    }

    /** Whether this connection runs over TLS. */
    public boolean isSsl() {
        return socket.isSsl();
    }

    /** Whether the peer has sent at least one frame over this connection. */
    public boolean hasReceived() {
        return hasReceived;
    }

    /** Completes once the connection has closed and its pending requests have failed. */
    public Future<Void> closed() {
        return closed.future();
    }

    /** Runs once when the connection closes (at once if it already has), on the connection's event loop. */
    public void onClose(Handler<RemotingConnection> handler) {
        closeHandlers.add(handler);
        if (isClosed && closeHandlers.remove(handler)) {
            handler.handle(this);
        }
    }

    public Future<Void> close() {
        return socket.close();
    }

    /** Sends a request and completes with its response, or fails after {@code timeoutMs} or on close. */
    public Future<RemotingCommand> invoke(RemotingCommand request, long timeoutMs) {
        if (isClosed) {
            return Future.failedFuture(new ConnectionClosedException("connection to " + remoteAddress + " closed"));
        }
        if (pending.size() >= limits.maxPendingRequests()) {
            return Future.failedFuture(new RemotingCommandException(ResponseCode.SYSTEM_BUSY, "connection to "
                + remoteAddress + " has " + pending.size() + " requests pending >= maxPendingRequests "
                + limits.maxPendingRequests()));
        }
        int opaque = nextOpaque.incrementAndGet();
        Promise<RemotingCommand> response = Promise.promise();
        long timer = vertx.setTimer(timeoutMs, id -> expire(opaque, request.code(), timeoutMs));
        pending.put(opaque, new PendingRequest(response, timer));
        if (isClosed) {
            failPending(opaque, new ConnectionClosedException("connection to " + remoteAddress + " closed"));
        } else {
            write(request.withOpaque(opaque)).onFailure(error -> failPending(opaque, error));
        }
        return response.future();
    }

    /** Sends a request that gets no response; completes when written. */
    public Future<Void> invokeOneway(RemotingCommand request) {
        if (isClosed) {
            return Future.failedFuture(new ConnectionClosedException("connection to " + remoteAddress + " closed"));
        }
        return write(request.withOpaque(nextOpaque.incrementAndGet()).asOneway());
    }

    private Future<Void> write(RemotingCommand command) {
        if (Vertx.currentContext() == context) {
            return writeNow(command);
        }
        Promise<Void> written = Promise.promise();
        context.runOnContext(ignored -> writeNow(command).onComplete(written));
        return written.future();
    }

    /** Writes the command; an owned body passes to the socket, which releases it once written or failed. */
    private Future<Void> writeNow(RemotingCommand command) {
        Buffer head;
        try {
            head = CommandCodec.encodeHead(command);
        } catch (RuntimeException e) {
            command.releaseOwnedBody();
            throw e;
        }
        Future<Void> written = !command.hasBody() ? socket.write(head)
            : command.ownedBody() != null ? writeHeadAndOwnedBody(head, command.ownedBody())
            : writeHeadAndBody(head, command.body());
        if (command.isResponse() && socket.writeQueueFull()) {
            // Back-pressure: stop reading requests from a peer that does not read its responses. Only a backed-up
            // response pauses: pausing because our own requests back up would also stop us reading the responses
            // the peer is writing, and when the peer's writes back up in turn, neither side ever drains.
            socket.pause();
            socket.drainHandler(ignored -> socket.resume());
        }
        return written;
    }

    private Future<Void> writeHeadAndBody(Buffer head, Buffer body) {
        socket.write(head);
        return socket.write(body);
    }

    /** Vert.x writes a Buffer's bytes as an unreleasable view, so an owned body goes to the channel as itself. */
    private Future<Void> writeHeadAndOwnedBody(Buffer head, ByteBuf body) {
        socket.write(head);
        return ((NetSocketInternal) socket).writeMessage(body);
    }

    private void onFrame(Buffer frame) {
        hasReceived = true;
        RemotingCommand command;
        try {
            command = CommandCodec.decode(frame, limits.maxHeaderBytes());
        } catch (MalformedFrameException e) {
            reader.fail(e.getMessage());
            return;
        }
        if (command.isResponse()) {
            onResponse(command);
        } else {
            onRequest(command);
        }
    }

    private void onResponse(RemotingCommand response) {
        PendingRequest request = pending.remove(response.opaque());
        if (request == null) {
            log.debug("connection {}: response for unknown or expired opaque {}", remoteAddress, response.opaque());
            return;
        }
        vertx.cancelTimer(request.timer());
        request.response().tryComplete(response);
    }

    private void onRequest(RemotingCommand request) {
        long startNanos = System.nanoTime();
        requestsInProcess.incrementAndGet();
        RequestProcessor processor = processors.find(request.code());
        RequestGuard guard = processors.guard();
        Future<RemotingCommand> refusal = guard == null ? null : runGuard(guard, request);
        Future<RemotingCommand> result;
        if (refusal != null) {
            result = refusal;   // the processor never sees a refused request
        } else if (processor == null) {
            result = Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                " request type " + request.code() + " not supported"));
        } else {
            result = runProcessor(processor, request);
        }
        result.onComplete(outcome -> {
            RemotingCommand response = outcome.succeeded() ? outcome.result() : errorReply(request, outcome.cause());
            if (response == null && !request.isOneway()) {
                // Every two-way request gets exactly one reply; a processor that gives none is a bug, not a hold.
                response = errorReply(request, new IllegalStateException("the processor for request code "
                    + request.code() + " gave no response"));
            }
            int responseCode = response == null ? ResponseCode.SUCCESS : response.code();
            observer.requestHandled(request.code(), responseCode, System.nanoTime() - startNanos);
            Future<Void> written = Future.succeededFuture();
            if (!request.isOneway() && response != null && !isClosed) {
                written = write(response.withOpaque(request.opaque()));
            } else if (response != null) {
                response.releaseOwnedBody();
            }
            if (requestsInProcess.decrementAndGet() == 0 && isShuttingDown) {
                written.onComplete(ignored -> socket.close());
            }
        });
    }

    /** The server is shutting down: close now if nothing is in process, else after the last answer is written. */
    private void onShutdown() {
        isShuttingDown = true;
        if (requestsInProcess.get() == 0) {
            socket.close();
        }
    }

    /** Null when the guard lets the request through, else the failed future of its refusal. */
    private Future<RemotingCommand> runGuard(RequestGuard guard, RemotingCommand request) {
        try {
            guard.check(this, request);
            return null;
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    private Future<RemotingCommand> runProcessor(RequestProcessor processor, RemotingCommand request) {
        try {
            Future<RemotingCommand> result = processor.process(this, request);
            return result == null ? Future.succeededFuture() : result;
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    private RemotingCommand errorReply(RemotingCommand request, Throwable error) {
        if (error instanceof RemotingCommandException known) {
            log.debug("connection {}: request code {} opaque {} refused: {}", remoteAddress, request.code(),
                request.opaque(), known.getMessage());
            return RemotingCommand.failure(request, known.responseCode(), known.getMessage());
        }
        log.error("connection {}: request code {} opaque {} failed", remoteAddress, request.code(),
            request.opaque(), error);
        return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR, String.valueOf(error));
    }

    private void onMalformed(String reason) {
        log.warn("connection {}: closing, malformed frame: {}", remoteAddress, reason);
        observer.frameRejected(reason);
        socket.close();
    }

    private void onClose() {
        if (reader.isInsideFrame()) {
            log.warn("connection {}: closed in the middle of a frame", remoteAddress);
        }
        isClosed = true;
        ConnectionClosedException error = new ConnectionClosedException("connection to " + remoteAddress
            + " closed");
        for (Integer opaque : pending.keySet()) {
            failPending(opaque, error);
        }
        observer.connectionClosed();
        for (Handler<RemotingConnection> handler : closeHandlers) {
            if (closeHandlers.remove(handler)) {
                handler.handle(this);
            }
        }
        closed.tryComplete();
    }

    private void expire(int opaque, int requestCode, long timeoutMs) {
        PendingRequest request = pending.remove(opaque);
        if (request != null) {
            request.response().tryFail(new RequestTimeoutException("request code " + requestCode + " to "
                + remoteAddress + " got no response within " + timeoutMs + " ms"));
        }
    }

    private void failPending(int opaque, Throwable error) {
        PendingRequest request = pending.remove(opaque);
        if (request != null) {
            vertx.cancelTimer(request.timer());
            request.response().tryFail(error);
        }
    }

    private record PendingRequest(Promise<RemotingCommand> response, long timer) {
    }
}
