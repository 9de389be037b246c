package io.vrmq.broker.loops;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vrmq.remoting.transport.RemotingServer;

import java.util.ArrayList;
import java.util.List;

/**
 * The event loops that serve the broker's client connections: the broker's own context first, then one context on
 * each further distinct event loop of Vert.x's pool, {@code serverSelectorThreads} in all. A remoting server listens
 * on the same port from each of them, and Vert.x shares the port, handing each new connection to the next loop in
 * turn; a connection then stays on its loop, so its requests are read, processed and answered in order there.
 *
 * <p>The extra contexts belong to no verticle deployment (a child verticle would be undeployed before the broker's
 * own stop, closing the ports before the broker unregisters from the NameServers); the broker shuts their servers
 * down itself, in its stop sequence. Built once by the broker verticle, on its context.
 */
public final class ConnectionLoops {
    private ConnectionLoops() {
    }

    /** {@code count} contexts on distinct event loops, {@code home} first. */
    public static List<Context> of(Vertx vertx, Context home, int count) {
        VertxInternal internal = (VertxInternal) vertx;
        EventLoop homeLoop = ((ContextInternal) home).nettyEventLoop();
        List<Context> contexts = new ArrayList<>(List.of(home));
        for (EventExecutor executor : internal.nettyEventLoopGroup()) {
            if (contexts.size() == count) {
                break;
            }
            if (executor != homeLoop) {
                contexts.add(internal.contextBuilder().withEventLoop((EventLoop) executor).build());
            }
        }
        if (contexts.size() < count) {
            throw new IllegalArgumentException("invalid serverSelectorThreads: " + count + " > the " + contexts.size()
                + " event loops of this Vert.x instance (eventLoopPoolSize)");
        }
        return contexts;
    }

    /** Starts {@code server} listening from {@code context}, so its connections land on that context's loop. */
    public static Future<Integer> listenOn(Context context, RemotingServer server, String host, int port) {
        Promise<Integer> bound = Promise.promise();
        context.runOnContext(ignored -> server.listen(host, port).onComplete(bound));
        return bound.future();
    }
}
