package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.assertIntact;
import static io.vrmq.compat.broker.support.TestMessages.bodies;
import static io.vrmq.compat.broker.support.TestMessages.message;
import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.TestMessages;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official lite pull consumer with assign, seek and commitSync (LITE_PULL_MESSAGE, QUERY/UPDATE_CONSUMER_OFFSET),
 * and the official admin's message look-ups: by key (QUERY_MESSAGE), by offset message id (VIEW_MESSAGE_BY_ID) and
 * by unique client id (QUERY_MESSAGE with _UNIQUE_KEY_QUERY); and how much one PULL_MESSAGE answer carries when the
 * official pull consumer asks for more (RocketMQ's maxTransferCountOnMessageInMemory and
 * maxTransferBytesOnMessageInMemory: 32 messages, 256 KiB).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LitePullAndQueryIT {

    private static final int MESSAGE_COUNT = 10;
    /** The lite consumer seeks to the offset of message 4 of 10. */
    private static final int SEEK_INDEX = 4;
    private static final int MORE_MESSAGES = 2;
    private static final long POLL_TIMEOUT_MS = 1_000;
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(30);
    /** The index that serves look-ups is built after the append, asynchronously (in RocketMQ as well). */
    private static final Duration INDEX_TIMEOUT = Duration.ofSeconds(20);
    /** The broker's defaults, as Apache's: the most messages and bytes one pull answer carries. */
    private static final int PULL_TRANSFER_MESSAGES = 32;
    private static final int PULL_TRANSFER_BYTES = 256 * 1024;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer producer;
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void startNameServerBrokerProducerAndAdmin() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-lite-query");
        producer = bed.clients().producer(uniqueName("lite_producer"));
        admin = bed.clients().admin();
    }

    @Test
    void aLitePullConsumerReadsFromTheSeekedOffsetAndItsCommittedOffsetIsWhereTheGroupResumes() throws Exception {
        String topic = Topics.create(producer, uniqueName("LitePull"));
        MessageQueue queue = new MessageQueue(topic, bed.broker().brokerName(), 0);
        List<Sent> sent = sendToQueue(queue, "lite", 0, MESSAGE_COUNT);
        Sent seekTo = sent.get(SEEK_INDEX);
        long endOffset = sent.get(MESSAGE_COUNT - 1).queueOffset() + 1;
        String group = uniqueName("lite_group");
        // Assigned and paused before start, so no pull is in flight when seek runs: the official client (5.5.0)
        // races there. A pull answered during seek can still submit its batch, because the new pull task clears
        // the seek offset outside the queue's lock before the old task checks it; the poll then returns the
        // messages before the seek offset too. Seek on a paused queue, then resume, is the race-free order.
        DefaultLitePullConsumer first = bed.clients().litePullConsumer(group, c -> {
            c.setAutoCommit(false);
            c.assign(List.of(queue));
            c.pause(List.of(queue));
        });
        first.seek(queue, seekTo.queueOffset());
        first.resume(List.of(queue));

        List<MessageExt> polled = poll(first, MESSAGE_COUNT - SEEK_INDEX);
        first.commitSync();

        List<Sent> expected = sent.subList(SEEK_INDEX, MESSAGE_COUNT);
        assertEquals(expected.stream().map(Sent::body).toList(), bodies(polled), "bodies polled");
        assertEquals(expected.stream().map(Sent::queueOffset).toList(),
            polled.stream().map(MessageExt::getQueueOffset).toList(), "queue offsets polled");
        Await.until("the committed offset of " + queue + " at " + endOffset, RECEIVE_TIMEOUT,
            () -> first.committed(queue) == endOffset);
        first.shutdown();

        List<Sent> more = sendToQueue(queue, "lite", MESSAGE_COUNT, MORE_MESSAGES);
        DefaultLitePullConsumer second = bed.clients().litePullConsumer(group, c -> c.setAutoCommit(false));
        second.assign(List.of(queue));
        assertEquals(more.stream().map(Sent::body).toList(), bodies(poll(second, MORE_MESSAGES)),
            "what the group reads after the commit");
    }

    @Test
    void theAdminFindsAMessageByItsKey() throws Exception {
        String topic = Topics.create(producer, uniqueName("QueryKey"));
        Message sent = message(topic, uniqueName("bykey"), "TagA", 0);
        send(sent);

        QueryResult[] found = new QueryResult[1];
        Await.until("a message with key " + sent.getKeys() + " found", INDEX_TIMEOUT, () -> {
            found[0] = admin.queryMessage(topic, sent.getKeys(), 32, 0, Long.MAX_VALUE);
            return !found[0].getMessageList().isEmpty();
        });

        assertEquals(1, found[0].getMessageList().size(), "found: " + found[0].getMessageList());
        assertIntact(sent, found[0].getMessageList().get(0));
    }

    @Test
    void theAdminViewsAMessageByItsOffsetMessageId() throws Exception {
        String topic = Topics.create(producer, uniqueName("ViewId"));
        Message sent = message(topic, "view", "TagA", 0);
        SendResult result = send(sent);

        MessageExt viewed = admin.viewMessage(topic, result.getOffsetMsgId());

        assertIntact(sent, viewed);
        assertEquals(result.getMsgId(), viewed.getMsgId(), "unique id of the viewed message");
        assertEquals(result.getQueueOffset(), viewed.getQueueOffset(), "queue offset of the viewed message");
    }

    @Test
    void theAdminFindsAMessageByItsUniqueClientId() throws Exception {
        String topic = Topics.create(producer, uniqueName("QueryUniq"));
        Message sent = message(topic, "uniq", "TagA", 0);
        SendResult result = send(sent);

        QueryResult[] found = new QueryResult[1];
        Await.until("message " + result.getMsgId() + " found by its unique id", INDEX_TIMEOUT, () -> {
            found[0] = admin.queryMessageByUniqKey(BrokerSettings.CLUSTER, topic, result.getMsgId(), 32, 0,
                Long.MAX_VALUE);
            return !found[0].getMessageList().isEmpty();
        });

        assertEquals(1, found[0].getMessageList().size(), "found: " + found[0].getMessageList());
        assertIntact(sent, found[0].getMessageList().get(0));
        assertEquals(result.getMsgId(), found[0].getMessageList().get(0).getMsgId());
    }

    @Test
    @SuppressWarnings("deprecation")
    void aPullAskingForMoreThanTheBrokersTransferLimitsGetsAtMost32MessagesOr256KiB() throws Exception {
        String topic = Topics.create(producer, uniqueName("PullLimits"));
        MessageQueue small = new MessageQueue(topic, bed.broker().brokerName(), 0);
        MessageQueue large = new MessageQueue(topic, bed.broker().brokerName(), 1);
        List<Sent> smallSent = sendToQueue(small, "small", 0, PULL_TRANSFER_MESSAGES + 8);
        byte[] largeBody = new byte[100 * 1024];
        new Random(7).nextBytes(largeBody);   // incompressible: the client zips bodies over 4 KiB
        List<Long> largeOffsets = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            SendResult result = producer.send(new Message(topic, "TagA", largeBody), large);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            largeOffsets.add(result.getQueueOffset());
        }
        // Topics.create's own first message may have landed in either queue: offsets are the sends' own.
        long smallFirst = smallSent.get(0).queueOffset();
        long largeFirst = largeOffsets.get(0);
        DefaultMQPullConsumer consumer = bed.clients().pullConsumer(uniqueName("limits_group"));
        Await.until("every message pullable", RECEIVE_TIMEOUT,
            () -> consumer.maxOffset(small) > smallSent.get(smallSent.size() - 1).queueOffset()
                && consumer.maxOffset(large) > largeOffsets.get(largeOffsets.size() - 1));

        PullResult fromSmall = consumer.pull(small, "*", smallFirst, 1_000);
        PullResult fromLarge = consumer.pull(large, "*", largeFirst, 32);

        assertEquals(PULL_TRANSFER_MESSAGES, fromSmall.getMsgFoundList().size(), "messages in one answer");
        assertEquals(smallFirst + PULL_TRANSFER_MESSAGES, fromSmall.getNextBeginOffset(),
            "where the next pull starts");
        assertEquals(2, fromLarge.getMsgFoundList().size(), "100 KiB bodies in one answer of at most "
            + PULL_TRANSFER_BYTES + " bytes: a third would pass it");
        assertEquals(largeFirst + 2, fromLarge.getNextBeginOffset());
    }

    /** A message sent to a known queue, and where it landed. */
    private record Sent(String body, long queueOffset) {
    }

    private static List<Sent> sendToQueue(MessageQueue queue, String label, int firstIndex, int count)
        throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int index = firstIndex; index < firstIndex + count; index++) {
            Message message = message(queue.getTopic(), label, "TagA", index);
            SendResult result = producer.send(message, queue);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            sent.add(new Sent(TestMessages.body(message), result.getQueueOffset()));
        }
        return sent;
    }

    private static SendResult send(Message message) throws Exception {
        SendResult result = producer.send(message);
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        return result;
    }

    /** Polls until {@code count} messages came, then checks that no more come in one further poll. */
    private static List<MessageExt> poll(DefaultLitePullConsumer consumer, int count) {
        List<MessageExt> polled = new ArrayList<>();
        Await.until(count + " messages polled", RECEIVE_TIMEOUT, () -> {
            polled.addAll(consumer.poll(POLL_TIMEOUT_MS));
            return polled.size() >= count;
        });
        polled.addAll(consumer.poll(POLL_TIMEOUT_MS));
        return polled;
    }
}
