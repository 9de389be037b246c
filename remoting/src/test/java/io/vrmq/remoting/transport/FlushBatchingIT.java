package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Answers completed outside a read (the way a send's answer comes back from the store's writer: a worker's result
 * handed to the event loop) with {@code maxWritesPerFlush} batching their socket writes: every answer arrives, to its
 * own request, also when the answers are large enough to back the socket up.
 */
@ExtendWith(VertxExtension.class)
class FlushBatchingIT {
    private static final int OFF_LOOP_ECHO = 9_101;
    private static final int SMALL_REQUEST_COUNT = 2_000;
    private static final int LARGE_BODY_BYTES = 64 * 1024;
    private static final int LARGE_REQUEST_COUNT = 600;
    private static final RemotingLimits BATCHING = new RemotingLimits(1024 * 1024, 16 * 1024, 10_000L, 4_096, 256);

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void manyAnswersCompletedOffTheLoopAllArriveAtTheirRequests(Vertx vertx, VertxTestContext test) {
        callAll(vertx, SMALL_REQUEST_COUNT, null)
            .map(calls -> {
                for (int i = 0; i < calls.size(); i++) {
                    RemotingCommand answer = calls.get(i).result();
                    assertEquals(ResponseCode.SUCCESS, answer.code());
                    assertEquals(Integer.toString(i), answer.ext("n"), "answer " + i);
                }
                return calls;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void largeAnswersCompletedOffTheLoopStillHonourBackPressure(Vertx vertx, VertxTestContext test) {
        Buffer body = Buffer.buffer(new byte[LARGE_BODY_BYTES]);
        callAll(vertx, LARGE_REQUEST_COUNT, body)
            .map(calls -> {
                for (Future<RemotingCommand> call : calls) {
                    assertEquals(ResponseCode.SUCCESS, call.result().code());
                    assertEquals(LARGE_BODY_BYTES, call.result().body().length());
                }
                return calls;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    void theLimitIsReadFromTheConfigAndChecked() {
        assertEquals(RemotingLimits.DEFAULT_MAX_WRITES_PER_FLUSH, RemotingLimits.from(new JsonObject())
            .maxWritesPerFlush());
        assertEquals(0, RemotingLimits.from(new JsonObject().put("maxWritesPerFlush", 0)).maxWritesPerFlush());
        assertThrows(IllegalArgumentException.class,
            () -> RemotingLimits.from(new JsonObject().put("maxWritesPerFlush", -1)));
    }

    /** Sends {@code count} requests at once to a batching server that answers each from a worker thread. */
    private static Future<List<Future<RemotingCommand>>> callAll(Vertx vertx, int count, Buffer body) {
        ProcessorTable table = ProcessorTable.builder().register(OFF_LOOP_ECHO, (connection, request) ->
            vertx.executeBlocking(() -> RemotingCommand.success(request, Map.of("n", request.ext("n")),
                request.body()), false)).build();
        RemotingServer server = new RemotingServer(vertx, new NetServerOptions().setHost(TestServer.HOST), BATCHING,
            4, new AtomicInteger(), table, RemotingObserver.NONE);
        RemotingClient client = client(vertx);
        return server.listen(TestServer.HOST, 0).compose(port -> {
            List<Future<RemotingCommand>> calls = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                calls.add(client.invoke(TestServer.HOST + ":" + port,
                    RemotingCommand.request(OFF_LOOP_ECHO, Map.of("n", Integer.toString(i)), body)));
            }
            return Future.all(calls).map(all -> calls);
        });
    }

    private static RemotingClient client(Vertx vertx) {
        return new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000), BATCHING,
            ProcessorTable.empty(), RemotingObserver.NONE);
    }
}
