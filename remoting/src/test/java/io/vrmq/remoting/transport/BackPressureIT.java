package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.vrmq.remoting.transport.TestServer.ECHO;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Both directions backed up at once: a burst of large requests whose large responses come back while the client
 * is still writing. Far more bytes than the loopback socket buffers hold, so the write queues fill on both sides.
 */
@ExtendWith(VertxExtension.class)
class BackPressureIT {
    private static final int BODY_BYTES = 64 * 1024;
    private static final int REQUEST_COUNT = 600;
    private static final RemotingLimits LIMITS = new RemotingLimits(1024 * 1024, 16 * 1024, 10_000L, 4_096);

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aBurstOfLargeRequestsWithLargeResponsesIsAllAnswered(Vertx vertx, VertxTestContext test) {
        RemotingServer server = new RemotingServer(vertx, new NetServerOptions().setHost(TestServer.HOST), LIMITS,
            4, new AtomicInteger(), TestServer.standardProcessors().build(), RemotingObserver.NONE);
        RemotingClient client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000), LIMITS,
            ProcessorTable.empty(), RemotingObserver.NONE);
        Buffer body = Buffer.buffer(new byte[BODY_BYTES]);

        server.listen(TestServer.HOST, 0)
            .compose(port -> {
                String address = TestServer.HOST + ":" + port;
                List<Future<RemotingCommand>> calls = new ArrayList<>();
                for (int i = 0; i < REQUEST_COUNT; i++) {
                    calls.add(client.invoke(address, RemotingCommand.request(ECHO, null, body)));
                }
                return Future.all(calls).map(all -> calls);
            })
            .map(calls -> {
                for (Future<RemotingCommand> call : calls) {
                    assertEquals(ResponseCode.SUCCESS, call.result().code());
                    assertEquals(BODY_BYTES, call.result().body().length());
                }
                return calls;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
