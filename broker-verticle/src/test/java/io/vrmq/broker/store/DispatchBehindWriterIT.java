package io.vrmq.broker.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.broker.schedule.HeldMessageBroker;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A broker whose store writer runs the dispatch rounds of its appends (dispatchBehindWriter) and one whose appends wake
 * the dispatcher thread: sends one at a time reach their queue in order, and a held pull is woken by the send that
 * fills it (its suspend timeout is longer than the test's, so only the wake can answer it).
 */
@ExtendWith(VertxExtension.class)
class DispatchBehindWriterIT {
    private static final String TOPIC = "BehindWriterTopic";
    private static final int MESSAGE_COUNT = 30;
    private static final long SUSPEND_MS = 120_000;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void sendsOneAtATimeReachTheirQueueInOrder(boolean dispatchBehindWriter, Vertx vertx, VertxTestContext test,
                                               @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir, new JsonObject().put("dispatchBehindWriter", dispatchBehindWriter))
            .compose(broker -> sendAll(broker, 0)
                .compose(sent -> broker.awaitMessages(TOPIC, 0, MESSAGE_COUNT, 10_000))
                .compose(dispatched -> broker.pull(TOPIC, 0, 0))
                .map(found -> {
                    test.verify(() -> {
                        assertEquals(bodies(), bodiesOf(found));
                        for (int index = 0; index < found.size(); index++) {
                            assertEquals(index, found.get(index).queueOffset());
                        }
                    });
                    return broker;
                })
                .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aHeldPullIsWokenByTheSendThatFillsIt(boolean dispatchBehindWriter, Vertx vertx, VertxTestContext test,
                                             @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir, new JsonObject().put("dispatchBehindWriter", dispatchBehindWriter))
            .compose(broker -> broker.sendOk(TOPIC, Map.of(), "m-first")
                .compose(sent -> broker.awaitMessages(TOPIC, 0, 1, 5_000))
                .compose(first -> {
                    Future<RemotingCommand> held = broker.invoke(RequestCode.PULL_MESSAGE, suspendingPull(1), null);
                    return broker.pause(200).compose(paused -> broker.sendOk(TOPIC, Map.of(), "m-woken"))
                        .compose(woken -> held);
                })
                .map(answer -> {
                    test.verify(() -> {
                        assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
                        assertEquals(List.of("m-woken"), bodiesOf(TestBrokerRequests.decodeAll(answer.body())));
                    });
                    return broker;
                })
                .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<Void> sendAll(HeldMessageBroker broker, int index) {
        if (index == MESSAGE_COUNT) {
            return Future.succeededFuture();
        }
        return broker.sendOk(TOPIC, Map.of(), "m-" + index).compose(sent -> sendAll(broker, index + 1));
    }

    private static Map<String, String> suspendingPull(long offset) {
        Map<String, String> header = TestBrokerRequests.pullHeader(HeldMessageBroker.GROUP, TOPIC, 0, offset);
        header.put("sysFlag", "6");
        header.put("suspendTimeoutMillis", Long.toString(SUSPEND_MS));
        return header;
    }

    private static List<String> bodies() {
        List<String> bodies = new ArrayList<>();
        for (int index = 0; index < MESSAGE_COUNT; index++) {
            bodies.add("m-" + index);
        }
        return bodies;
    }

    private static List<String> bodiesOf(List<StoredMessage> messages) {
        return messages.stream().map(message -> new String(message.body(), StandardCharsets.UTF_8)).toList();
    }
}
