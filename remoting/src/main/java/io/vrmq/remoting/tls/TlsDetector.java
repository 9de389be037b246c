package io.vrmq.remoting.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The first handler of one server connection: its first byte says TLS (0x16, a handshake record, as Apache checks)
 * or plain. TLS: an SslHandler takes this handler's place and gets the bytes read so far (Netty's replace forwards
 * them). Plain: permissive steps aside, enforcing closes the connection without an answer. While the server's
 * context is still being built (the first TLS client of a test-mode server), reading pauses. One instance per
 * connection; called on that connection's event loop only.
 */
final class TlsDetector extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(TlsDetector.class);
    private static final byte TLS_HANDSHAKE_RECORD = 0x16;

    private final ServerTls tls;
    private boolean isWaitingForContext;

    TlsDetector(ServerTls tls) {
        this.tls = tls;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (isWaitingForContext || !in.isReadable()) {
            return;
        }
        if (in.getByte(in.readerIndex()) != TLS_HANDSHAKE_RECORD) {
            if (tls.mode() == TlsMode.ENFORCING) {
                log.debug("closing plain connection from {}: TLS is enforced", ctx.channel().remoteAddress());
                in.skipBytes(in.readableBytes());
                ctx.close();
            } else {
                ctx.pipeline().remove(this);
            }
            return;
        }
        Future<SslContext> context = tls.context();
        if (context.isComplete()) {
            upgrade(ctx, context);
            return;
        }
        isWaitingForContext = true;
        ctx.channel().config().setAutoRead(false);
        context.onComplete(built -> ctx.executor().execute(() -> {
            upgrade(ctx, context);
            ctx.channel().config().setAutoRead(true);
        }));
    }

    private void upgrade(ChannelHandlerContext ctx, Future<SslContext> context) {
        if (context.failed()) {
            log.warn("closing TLS connection from {}: {}", ctx.channel().remoteAddress(),
                context.cause().getMessage());
            ctx.close();
            return;
        }
        if (!ctx.isRemoved()) {
            ctx.pipeline().replace(this, ServerTls.HANDLER_NAME, context.result().newHandler(ctx.alloc()));
        }
    }
}
