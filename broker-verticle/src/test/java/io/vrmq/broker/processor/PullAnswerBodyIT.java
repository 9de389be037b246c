package io.vrmq.broker.processor;

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
 * A pull answer's body with its records copied into one buffer (copyPulledRecords) and as the mapped slices: the
 * same records in queue order, read on a reader thread (a backlog of more than one answer) and on the dispatcher (a
 * held pull woken by a send).
 */
@ExtendWith(VertxExtension.class)
class PullAnswerBodyIT {
    private static final String TOPIC = "PullBodyTopic";
    private static final int MESSAGE_COUNT = 40;   // more than one pull's 32
    private static final long SUSPEND_MS = 10_000;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aBacklogComesBackInOrderOverTwoPulls(boolean copyPulledRecords, Vertx vertx, VertxTestContext test,
                                              @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir, new JsonObject().put("copyPulledRecords", copyPulledRecords))
            .compose(broker -> sendAll(broker, 0)
                // Every message dispatched first (the ConsumeQueue is written behind the sends' answers).
                .compose(sent -> broker.poll(() -> broker.pull(TOPIC, 0, 32), found -> found.size()
                    == MESSAGE_COUNT - 32, 5_000))
                .compose(dispatched -> broker.pull(TOPIC, 0, 0))
                .compose(first -> broker.pull(TOPIC, 0, first.size()).map(second -> {
                    List<StoredMessage> all = new ArrayList<>(first);
                    all.addAll(second);
                    test.verify(() -> {
                        assertEquals(32, first.size(), "the first answer carries the most one pull may");
                        assertEquals(bodies(0, MESSAGE_COUNT), bodiesOf(all));
                        for (int index = 0; index < all.size(); index++) {
                            assertEquals(index, all.get(index).queueOffset());
                        }
                    });
                    return broker;
                }))
                .compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aHeldPullWokenByASendCarriesTheNewMessage(boolean copyPulledRecords, Vertx vertx, VertxTestContext test,
                                                  @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir, new JsonObject().put("copyPulledRecords", copyPulledRecords))
            .compose(broker -> broker.sendOk(TOPIC, Map.of(), "m-first")
                // Dispatched first: a pull past a queue the dispatcher has not reached yet is told
                // NO_MESSAGE_IN_QUEUE (OFFSET_MOVED), as by RocketMQ, not held.
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

    /** A pull that may wait (suspend flag, subscription in the request) from {@code offset}. */
    private static Map<String, String> suspendingPull(long offset) {
        Map<String, String> header = TestBrokerRequests.pullHeader(HeldMessageBroker.GROUP, TOPIC, 0, offset);
        header.put("sysFlag", "6");
        header.put("suspendTimeoutMillis", Long.toString(SUSPEND_MS));
        return header;
    }

    private static List<String> bodies(int from, int to) {
        List<String> bodies = new ArrayList<>();
        for (int index = from; index < to; index++) {
            bodies.add("m-" + index);
        }
        return bodies;
    }

    private static List<String> bodiesOf(List<StoredMessage> messages) {
        return messages.stream().map(message -> new String(message.body(), StandardCharsets.UTF_8)).toList();
    }
}
