package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POP_MESSAGE, ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME against a real broker, with the client's receipts. */
@ExtendWith(VertxExtension.class)
class PopIT {
    private static final String TOPIC = "PopTopic";
    private static final long SHORT_INVISIBLE_MS = 1_000;
    private static final long WAIT_MS = 10_000;

    /** Popped messages are invisible to the next pop; an acked one never comes back, an unacked one does. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void unackedMessageComesBackFromTheRetryTopicAndAnAckedOneDoesNot(Vertx vertx, VertxTestContext test,
                                                                       @TempDir Path dir) {
        PopTestBroker.start(vertx, dir).compose(broker -> broker.send(TOPIC, 0, 2)
            .compose(sent -> broker.pop(TOPIC, -1, 32, SHORT_INVISIBLE_MS, 0, false))
            .compose(first -> {
                test.verify(() -> assertEquals(List.of("m0", "m1"), first.bodies()));
                return broker.pop(TOPIC, -1, 32, SHORT_INVISIBLE_MS, 0, false)
                    .compose(second -> {
                        test.verify(() -> assertEquals(ResponseCode.POLLING_TIMEOUT, second.code(),
                            "popped messages are invisible"));
                        return broker.ack(first.messages().get(0));
                    })
                    .map(TestBrokerRequests::requireSuccess)
                    .compose(acked -> broker.broker().poll(
                        () -> broker.pop(TOPIC, -1, 32, SHORT_INVISIBLE_MS, 0, false),
                        again -> !again.messages().isEmpty(), WAIT_MS));
            })
            .map(again -> {
                test.verify(() -> {
                    assertEquals(List.of("m1"), again.bodies());
                    PopTestBroker.PoppedMessage back = again.messages().get(0);
                    assertEquals(TOPIC, back.message().topic(), "a retried message carries its original topic");
                    assertEquals(1, back.message().reconsumeTimes());
                    assertTrue(back.receipt().split(" ")[4].equals("1"), "its receipt names the retry topic: "
                        + back.receipt());
                    assertEquals(PopTestBroker.GROUP, back.message().propertyMap().get(MessageConst.ORIGIN_GROUP));
                });
                return again;
            })
            .compose(again -> broker.ack(again.messages().get(0)).map(TestBrokerRequests::requireSuccess))
            .compose(acked -> broker.broker().pause(SHORT_INVISIBLE_MS * 2))
            .compose(waited -> broker.pop(TOPIC, -1, 32, SHORT_INVISIBLE_MS, 0, false))
            .map(last -> {
                test.verify(() -> assertEquals(ResponseCode.POLLING_TIMEOUT, last.code(), "both acked"));
                return last;
            })
            .compose(last -> broker.stop()))
            .onComplete(test.succeedingThenComplete());
    }
}
