package io.vrmq.remoting.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An answer that owns its body (a pooled buffer, as a pull answer's copied records): the bytes arrive as they were,
 * and the buffer goes back to its pool once written, or when the answer cannot be written because its connection
 * closed first.
 */
@ExtendWith(VertxExtension.class)
class OwnedBodyIT {
    private static final int ANSWERS_OWNED_BODY = 9_201;
    private static final int ANSWERS_OWNED_BODY_AFTER_CLOSE = 9_202;
    private static final int BODY_BYTES = 60_000;   // under TestServer.LIMITS.maxFrameBytes

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anOwnedBodyArrivesWholeAndIsReleasedOnceWritten(Vertx vertx, VertxTestContext test) {
        AtomicReference<ByteBuf> owned = new AtomicReference<>();
        AtomicReference<Context> serverContext = new AtomicReference<>();
        ProcessorTable processors = ProcessorTable.builder()
            .register(ANSWERS_OWNED_BODY, (connection, request) -> {
                serverContext.set(Vertx.currentContext());
                owned.set(pattern(BODY_BYTES));
                return Future.succeededFuture(RemotingCommand.responseWithOwnedBody(request, ResponseCode.SUCCESS,
                    null, Map.of("k", "v"), owned.get()));
            })
            .build();
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, processors)
            .compose(server -> client.invoke(server.address(), RemotingCommand.request(ANSWERS_OWNED_BODY)))
            .compose(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                assertEquals("v", response.ext("k"));
                assertEquals(expectedPattern(BODY_BYTES), response.body());
                return onContext(serverContext.get());   // after the server loop's turn that completed the write
            })
            .map(ignored -> {
                assertEquals(0, owned.get().refCnt(), "the written body went back to its pool");
                return ignored;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void anOwnedBodyWhoseConnectionClosedBeforeTheAnswerIsReleased(Vertx vertx, VertxTestContext test) {
        AtomicReference<ByteBuf> owned = new AtomicReference<>();
        Promise<Void> arrived = Promise.promise();
        Promise<Void> answered = Promise.promise();
        ProcessorTable processors = ProcessorTable.builder()
            .register(ANSWERS_OWNED_BODY_AFTER_CLOSE, (connection, request) -> {
                Promise<RemotingCommand> reply = Promise.promise();
                arrived.complete();
                connection.onClose(closed -> {
                    owned.set(pattern(BODY_BYTES));
                    reply.complete(RemotingCommand.responseWithOwnedBody(request, ResponseCode.SUCCESS, null,
                        Map.of(), owned.get()));
                    answered.complete();
                });
                return reply.future();
            })
            .build();
        RemotingClient client = TestServer.client(vertx);

        TestServer.start(vertx, processors)
            .compose(server -> client.connection(server.address()))
            .compose(connection -> {
                connection.invoke(RemotingCommand.request(ANSWERS_OWNED_BODY_AFTER_CLOSE), 5_000);
                return arrived.future().compose(ignored -> connection.close());
            })
            .compose(ignored -> answered.future())
            .map(ignored -> {
                assertEquals(0, owned.get().refCnt(), "the unwritten body went back to its pool");
                return ignored;
            })
            .onComplete(test.succeedingThenComplete());
    }

    private static ByteBuf pattern(int bytes) {
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(bytes);
        for (int index = 0; index < bytes; index++) {
            buffer.writeByte(index % 251);
        }
        return buffer;
    }

    private static Buffer expectedPattern(int bytes) {
        Buffer buffer = Buffer.buffer(bytes);
        for (int index = 0; index < bytes; index++) {
            buffer.appendByte((byte) (index % 251));
        }
        return buffer;
    }

    private static Future<Void> onContext(Context context) {
        Promise<Void> ran = Promise.promise();
        context.runOnContext(ignored -> ran.complete());
        return ran.future();
    }
}
