package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A plain TCP socket to a server under test: sends whatever bytes a test builds (garbage included) and hands back
 * the commands the server writes, in order. Thread-safe: the socket's event loop delivers, any thread may wait.
 */
final class RawSocket {
    private final NetSocket socket;
    private final Deque<RemotingCommand> received = new ArrayDeque<>();
    private final Deque<Promise<RemotingCommand>> waiting = new ArrayDeque<>();
    private final Promise<Void> closed = Promise.promise();
    private int receivedCount;

    private RawSocket(NetSocket socket) {
        this.socket = socket;
        socket.handler(new FrameReader(TestServer.LIMITS.maxFrameBytes(),
            frame -> deliver(CommandCodec.decode(frame, TestServer.LIMITS.maxHeaderBytes())),
            reason -> closed.tryFail("the server sent a bad frame: " + reason)));
        socket.closeHandler(ignored -> closed.tryComplete());
    }

    static Future<RawSocket> open(Vertx vertx, int port) {
        return vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000))
            .connect(port, TestServer.HOST)
            .map(RawSocket::new);
    }

    Future<Void> send(Buffer bytes) {
        return socket.write(bytes);
    }

    /** The next command the server sends (one already received, or the next to arrive). */
    synchronized Future<RemotingCommand> nextCommand() {
        RemotingCommand command = received.pollFirst();
        if (command != null) {
            return Future.succeededFuture(command);
        }
        Promise<RemotingCommand> promise = Promise.promise();
        waiting.addLast(promise);
        return promise.future();
    }

    /** Completes when the server closes the connection. */
    Future<Void> closed() {
        return closed.future();
    }

    synchronized int receivedCount() {
        return receivedCount;
    }

    private void deliver(RemotingCommand command) {
        Promise<RemotingCommand> promise;
        synchronized (this) {
            receivedCount++;
            promise = waiting.pollFirst();
            if (promise == null) {
                received.addLast(command);
                return;
            }
        }
        promise.complete(command);
    }
}
