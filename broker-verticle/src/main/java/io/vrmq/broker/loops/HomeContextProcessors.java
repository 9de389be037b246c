package io.vrmq.broker.loops;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestProcessor;

import java.util.Set;

/**
 * Which processors run on the event loop of the request's connection and which on the broker's own context. With
 * several connection loops ({@code serverSelectorThreads} above 1) only the hot path runs where the connection is:
 * sends and pulls, whose processors were audited to touch only thread-safe state and to hand context-confined work
 * (held pulls, SYNC_MASTER waits) to its owner. Every other request hops to the broker's context, where POP, the
 * long-poll holds, the transaction, schedule and timer services, and the admin processors have always run, so none of
 * them needs to be safe for several loops. One connection's requests of one kind keep their order (a loop hands its
 * hops to the broker's context in order); across kinds, as in RocketMQ with its per-kind executors, no order is
 * promised. The request guard (authentication) runs on the connection's loop before either.
 */
public final class HomeContextProcessors {
    /** Request codes processed on the connection's own event loop. */
    static final Set<Integer> LOOP_SAFE_CODES = Set.of(RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2,
        RequestCode.SEND_BATCH_MESSAGE, RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE);

    private HomeContextProcessors() {
    }

    /** {@code table} with every processor outside {@link #LOOP_SAFE_CODES} run on {@code home}. */
    public static ProcessorTable confine(ProcessorTable table, Context home) {
        return table.mapProcessors((code, processor) -> LOOP_SAFE_CODES.contains(code) ? processor
            : onHome(home, processor));
    }

    private static RequestProcessor onHome(Context home, RequestProcessor processor) {
        return (connection, request) -> {
            if (Vertx.currentContext() == home) {
                return processor.process(connection, request);
            }
            Promise<RemotingCommand> reply = Promise.promise();
            home.runOnContext(ignored -> run(processor, connection, request, reply));
            return reply.future();
        };
    }

    private static void run(RequestProcessor processor, RemotingConnection connection,
                            RemotingCommand request, Promise<RemotingCommand> reply) {
        Future<RemotingCommand> result;
        try {
            result = processor.process(connection, request);
        } catch (RuntimeException e) {
            reply.fail(e);   // the connection maps it to its reply, as for a processor run in place
            return;
        }
        if (result == null) {
            reply.complete(null);
        } else {
            result.onComplete(reply);
        }
    }
}
