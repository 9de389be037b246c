package io.vrmq.broker.processor;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.broker.schedule.HeldMessageBroker;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A pull answer's body with its records copied into one buffer (copyPulledRecords) and as the mapped slices, with the
 * dispatch rounds run behind the store writer (dispatchBehindWriter) and on the dispatcher thread: the same records
 * in queue order after sends one at a time, read on a reader thread (a backlog of more than one answer) and on the
 * thread of the dispatch round (a held pull woken by a send; its suspend time is longer than the test's).
 */
@ExtendWith(VertxExtension.class)
class PullAnswerBodyIT {
    private static final String TOPIC = "PullBodyTopic";
    private static final int MESSAGE_COUNT = 40;   // more than one pull's 32
    private static final long SUSPEND_MS = 120_000;   // longer than the test: only the wake can answer

    @ParameterizedTest
    @CsvSource({"true, true", "false, true", "true, false"})
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aBacklogComesBackInOrderOverTwoPulls(boolean copyPulledRecords, boolean dispatchBehindWriter, Vertx vertx,
                                              VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir, settings(copyPulledRecords, dispatchBehindWriter))
            .compose(broker -> broker.sendNumbered(TOPIC, MESSAGE_COUNT)
                // Every message dispatched first (the ConsumeQueue is written behind the sends' answers).
                .compose(sent -> broker.poll(() -> broker.pull(TOPIC, 0, 32), found -> found.size()
                    == MESSAGE_COUNT - 32, 5_000))
                .compose(dispatched -> broker.pull(TOPIC, 0, 0))
                .compose(first -> broker.pull(TOPIC, 0, first.size()).map(second -> {
                    List<StoredMessage> all = new ArrayList<>(first);
                    all.addAll(second);
                    test.verify(() -> {
                        assertEquals(32, first.size(), "the first answer carries the most one pull may");
                        assertEquals(IntStream.range(0, MESSAGE_COUNT).mapToObj(i -> "m-" + i).toList(),
                            HeldMessageBroker.bodyTexts(all));
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
    @CsvSource({"true, true", "false, true", "true, false"})
    @Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
    void aHeldPullWokenByASendCarriesTheNewMessage(boolean copyPulledRecords, boolean dispatchBehindWriter,
                                                  Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        HeldMessageBroker.start(vertx, dir, settings(copyPulledRecords, dispatchBehindWriter))
            .compose(broker -> broker.heldPullWokenBySend(TOPIC, SUSPEND_MS).map(answer -> {
                test.verify(() -> {
                    assertEquals(ResponseCode.SUCCESS, answer.code(), answer.remark());
                    assertEquals(List.of("m-woken"),
                        HeldMessageBroker.bodyTexts(TestBrokerRequests.decodeAll(answer.body())));
                });
                return broker;
            }).compose(HeldMessageBroker::stop))
            .onComplete(test.succeedingThenComplete());
    }

    private static JsonObject settings(boolean copyPulledRecords, boolean dispatchBehindWriter) {
        return new JsonObject().put("copyPulledRecords", copyPulledRecords)
            .put("dispatchBehindWriter", dispatchBehindWriter);
    }
}
