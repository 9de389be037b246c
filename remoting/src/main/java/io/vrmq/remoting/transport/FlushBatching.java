package io.vrmq.remoting.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/**
 * Batches a server connection's socket writes ({@code maxWritesPerFlush}). Vert.x flushes a write made inside a read
 * at the read's end, together with the read's other answers, but flushes a write made outside a read at once: one
 * socket write (a system call) per answer. A send's answer is made outside a read: it completes when the store's
 * writer hands the append's result back to the event loop, one task per append. With 512 sends in flight the
 * loop then ran one system call per message.
 *
 * <p>Netty's {@link FlushConsolidationHandler} (with consolidation outside reads) turns such a flush into one task
 * queued on the event loop: the answers of every completion already queued ahead of it go out in one socket write,
 * at the latest after {@code maxWritesPerFlush} writes, at once when the channel stops being writable (so
 * back-pressure still sees the bytes) and before a close. An answer waits at most for the tasks queued ahead of its
 * flush, which were already going to run before the loop could write again.
 *
 * <p>Call from the connect handler, on the socket's event loop, before the socket is read.
 */
final class FlushBatching {
    static final String HANDLER_NAME = "vrmq-flush-batching";

    private FlushBatching() {
    }

    static void install(NetSocket socket, int maxWritesPerFlush) {
        if (maxWritesPerFlush <= 0) {
            return;
        }
        // Between the head (and TLS, which stays first) and Vert.x's handler, whose writes pass through it.
        ChannelHandlerContext vertxHandler = ((NetSocketInternal) socket).channelHandlerContext();
        vertxHandler.pipeline().addBefore(vertxHandler.name(), HANDLER_NAME,
            new FlushConsolidationHandler(maxWritesPerFlush, true));
    }
}
