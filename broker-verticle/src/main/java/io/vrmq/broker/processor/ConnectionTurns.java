package io.vrmq.broker.processor;

import io.vertx.core.Future;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Keeps one connection's client-management requests in arrival order when some of them wait for a worker (a large
 * heartbeat decoded off the event loop): a request that arrives while an earlier one of its connection is still
 * pending is applied after it, even when its own input was ready first. A connection with nothing pending has no
 * entry, so the usual request is applied in place, as before. Requests of different connections never wait for
 * each other.
 */
final class ConnectionTurns {
    private final Map<RemotingConnection, Future<RemotingCommand>> lastPending = new ConcurrentHashMap<>();

    /** Whether a request of {@code connection} is still waiting for its turn or its input. */
    boolean isBusy(RemotingConnection connection) {
        return lastPending.containsKey(connection);
    }

    /**
     * {@code apply} run on {@code input} once {@code input} is ready and every earlier request of
     * {@code connection} passed to this method has been answered (failed ones included). A failed input fails its
     * own answer only.
     */
    <T> Future<RemotingCommand> after(RemotingConnection connection, Future<T> input,
                                      Function<T, RemotingCommand> apply) {
        Future<RemotingCommand> previous = lastPending.get(connection);
        Future<T> turn = previous == null ? input : previous.transform(ignored -> input);
        Future<RemotingCommand> answer = turn.map(apply);
        lastPending.put(connection, answer);
        answer.onComplete(ignored -> lastPending.remove(connection, answer));
        return answer;
    }
}
