package io.vrmq.compat.pop;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.AckResult;
import org.apache.rocketmq.client.consumer.AckStatus;
import org.apache.rocketmq.client.consumer.PopResult;
import org.apache.rocketmq.client.consumer.PopStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Receipts and invisible times with the official 5.5.0 client's POP calls (what its push consumer and Apache's proxy
 * send): an unacked message comes back after its invisible time with reconsume times + 1, a change of invisible time
 * postpones it and hands out a new receipt, an ack with a receipt that expired is answered as RocketMQ's broker
 * answers it (SUCCESS: the broker does not check receipts) and brings nothing back; orderly pops keep each queue's
 * order across a redelivery, and a repeated attemptId gets the same messages again. Invisible times of seconds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PopReceiptIT {
    private static final long SHORT_INVISIBLE_MS = 2_000;
    private static final Duration BACK_TIMEOUT = Duration.ofSeconds(30);

    private static final int SEND_TIMEOUT_MS = 15_000;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer producer;
    private static PopClient client;

    @BeforeAll
    static void startNameServerBrokerAndClient() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-pop-receipt");
        producer = bed.clients().producer(uniqueName("receipt_producer"));
        // A loaded test machine: the default 3 s send timeout is too short for the first sends.
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        client = new PopClient(producer, bed.broker().brokerName(), bed.broker().address());
    }

    @Test
    void anUnackedMessageComesBackAfterItsInvisibleTimeWithReconsumeTimesPlusOne() throws Exception {
        String topic = Topics.create(producer, uniqueName("PopExpire"));
        String group = uniqueName("expire_group");
        SendResult sent = send(topic, 0, "expiring");

        MessageExt first = popOne(group, topic, SHORT_INVISIBLE_MS);
        assertEquals(PopStatus.POLLING_NOT_FOUND, client.pop(group, topic, -1, 32, SHORT_INVISIBLE_MS, 0, false,
            null).getPopStatus(), "a popped message is invisible");
        MessageExt again = popOne(group, topic, SHORT_INVISIBLE_MS);

        assertEquals(sent.getMsgId(), first.getMsgId());
        assertEquals(sent.getMsgId(), again.getMsgId());
        assertEquals(0, first.getReconsumeTimes());
        assertEquals(1, again.getReconsumeTimes());
        assertEquals(topic, again.getTopic(), "the retried message comes under its own topic");
        assertEquals(AckStatus.OK, client.ack(group, again).getStatus());
    }

    @Test
    void changingTheInvisibleTimePostponesTheRedeliveryAndItsNewReceiptAcksTheMessage() throws Exception {
        String topic = Topics.create(producer, uniqueName("PopChange"));
        String group = uniqueName("change_group");
        send(topic, 0, "postponed");
        MessageExt popped = popOne(group, topic, SHORT_INVISIBLE_MS);
        String oldReceipt = popped.getProperty(MessageConst.PROPERTY_POP_CK);

        AckResult changed = client.changeInvisibleTime(group, popped, 3 * SHORT_INVISIBLE_MS);

        assertEquals(AckStatus.OK, changed.getStatus(), changed.toString());
        assertNotEquals(oldReceipt, changed.getExtraInfo(), "a change gives a new receipt");
        // Held twice the old invisible time, the pop still finds nothing: the deadline moved.
        PopResult held = client.pop(group, topic, -1, 32, SHORT_INVISIBLE_MS, 2 * SHORT_INVISIBLE_MS, false, null);
        assertEquals(PopStatus.POLLING_NOT_FOUND, held.getPopStatus(), "redelivered before the new deadline: "
            + held);
        MessageExt back = popOne(group, topic, SHORT_INVISIBLE_MS);
        assertEquals("postponed", body(back));
        assertEquals(1, back.getReconsumeTimes());

        AckResult changedAgain = client.changeInvisibleTime(group, back, SHORT_INVISIBLE_MS);
        back.getProperties().put(MessageConst.PROPERTY_POP_CK, changedAgain.getExtraInfo());
        assertEquals(AckStatus.OK, client.ack(group, back).getStatus());
        PopResult after = client.pop(group, topic, -1, 32, SHORT_INVISIBLE_MS, 3 * SHORT_INVISIBLE_MS, false, null);
        assertEquals(PopStatus.POLLING_NOT_FOUND, after.getPopStatus(), "acked with the new receipt: " + after);
    }

    @Test
    void anAckWithAnExpiredReceiptIsAnsweredAsRocketMqsBrokerDoesAndChangesNothing() throws Exception {
        String topic = Topics.create(producer, uniqueName("PopStale"));
        String group = uniqueName("stale_group");
        send(topic, 0, "stale");
        MessageExt first = popOne(group, topic, SHORT_INVISIBLE_MS);
        MessageExt second = popOne(group, topic, SHORT_INVISIBLE_MS);
        assertEquals(1, second.getReconsumeTimes());

        AckResult stale = client.ack(group, first);

        assertEquals(AckStatus.OK, stale.getStatus(), "RocketMQ 5.5.0's broker answers SUCCESS without checking");
        MessageExt third = popOne(group, topic, SHORT_INVISIBLE_MS);
        assertEquals(2, third.getReconsumeTimes(), "the expired receipt acked nothing: the second delivery, "
            + "unacked, came back");
        assertEquals(AckStatus.OK, client.ack(group, third).getStatus());
    }

    @Test
    void orderlyPopsBlockTheQueueAndARedeliveryKeepsItsOrder() throws Exception {
        String topic = Topics.create(producer, uniqueName("PopOrder"));
        String group = uniqueName("order_group");
        for (int i = 0; i < 6; i++) {
            send(topic, 1, "o" + i);
        }
        awaitQueued(topic, 1, 6);
        PopResult first = client.pop(group, topic, 1, 3, SHORT_INVISIBLE_MS, 0, true, "attempt-1");
        assertEquals(List.of("o0", "o1", "o2"), bodies(first));
        PopResult blocked = client.pop(group, topic, 1, 3, SHORT_INVISIBLE_MS, 0, true, "attempt-2");
        assertEquals(PopStatus.POLLING_NOT_FOUND, blocked.getPopStatus(), "unacked messages block the queue");
        PopResult retried = client.pop(group, topic, 1, 3, SHORT_INVISIBLE_MS, 0, true, "attempt-1");
        assertEquals(List.of("o0", "o1", "o2"), bodies(retried), "the same attemptId gets the same messages");

        assertEquals(AckStatus.OK, client.ack(group, retried.getMsgFoundList().get(0)).getStatus());
        AtomicReference<PopResult> redelivered = new AtomicReference<>();
        Await.until("the unacked messages of queue 1 popped again", BACK_TIMEOUT, () -> {
            PopResult again = client.pop(group, topic, 1, 3, SHORT_INVISIBLE_MS, 0, true, "attempt-3");
            redelivered.set(again);
            return again.getPopStatus() == PopStatus.FOUND;
        });

        assertEquals(List.of("o1", "o2", "o3"), bodies(redelivered.get()), "redelivered in place, in order");
        assertEquals(List.of(1, 1, 0), redelivered.get().getMsgFoundList().stream()
            .map(MessageExt::getReconsumeTimes).toList(), "the delivery counts of orderCountInfo");
        for (MessageExt message : redelivered.get().getMsgFoundList()) {
            assertEquals(AckStatus.OK, client.ack(group, message).getStatus());
        }
        PopResult rest = client.pop(group, topic, 1, 3, SHORT_INVISIBLE_MS, 0, true, "attempt-4");
        assertEquals(List.of("o4", "o5"), bodies(rest), "the acks moved the queue on");
        assertTrue(rest.getMsgFoundList().stream().allMatch(message -> message.getReconsumeTimes() == 0));
    }

    /** Pops until one message comes (it may be invisible for a while); fails after {@link #BACK_TIMEOUT}. */
    private static MessageExt popOne(String group, String topic, long invisibleTimeMs) {
        AtomicReference<MessageExt> found = new AtomicReference<>();
        Await.until("a message of " + topic + " for " + group, BACK_TIMEOUT, () -> {
            PopResult result = client.pop(group, topic, -1, 1, invisibleTimeMs, 1_000, false, null);
            if (result.getPopStatus() == PopStatus.FOUND) {
                found.set(result.getMsgFoundList().get(0));
                return true;
            }
            return false;
        });
        return found.get();
    }

    /** A send is answered once stored; a pop sees it once dispatched to its queue, a moment later. */
    @SuppressWarnings("deprecation")
    private static void awaitQueued(String topic, int queueId, long count) {
        MessageQueue queue = new MessageQueue(topic, bed.broker().brokerName(), queueId);
        Await.until(count + " messages in " + queue, BACK_TIMEOUT, () -> producer.maxOffset(queue) >= count);
    }

    private static SendResult send(String topic, int queueId, String body) throws Exception {
        SendResult result = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)),
            new MessageQueue(topic, bed.broker().brokerName(), queueId));
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        return result;
    }

    private static List<String> bodies(PopResult result) {
        return result.getMsgFoundList() == null ? List.of()
            : result.getMsgFoundList().stream().map(PopReceiptIT::body).toList();
    }

    private static String body(MessageExt message) {
        return new String(message.getBody(), StandardCharsets.UTF_8);
    }
}
