package io.vrmq.compat.broker.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Reads everything stored in a topic, queue by queue from offset 0 to the end, with the official
 * {@code DefaultMQPullConsumer} (PULL_MESSAGE with the subscription in the request, no suspend). Used to check what
 * the broker stored, independent of consumer groups and offsets. Test thread only.
 */
@SuppressWarnings("deprecation")
public final class TopicReader {

    private static final int MAX_MESSAGES_PER_PULL = 32;
    /** A queue is read to its end in well under this many pulls in any test here; more means the offsets loop. */
    private static final int MAX_PULLS_PER_QUEUE = 10_000;

    private final DefaultMQPullConsumer consumer;

    public TopicReader(DefaultMQPullConsumer consumer) {
        this.consumer = consumer;
    }

    /** Every message of every queue of {@code topic}, ordered by queue id then queue offset. */
    public List<MessageExt> readAll(String topic) throws Exception {
        List<MessageQueue> queues = new ArrayList<>(consumer.fetchSubscribeMessageQueues(topic));
        queues.sort(Comparator.comparingInt(MessageQueue::getQueueId));
        List<MessageExt> messages = new ArrayList<>();
        for (MessageQueue queue : queues) {
            messages.addAll(readQueue(queue, 0));
        }
        return messages;
    }

    /**
     * Every message of {@code topic} once at least {@code expectedCount} are readable: a send is acknowledged when
     * the commit log has it, and the consume queue entry that makes it pullable follows asynchronously (in RocketMQ
     * as well), so a read right after the acknowledgements may come too early.
     */
    public List<MessageExt> readAll(String topic, int expectedCount, Duration timeout) throws Exception {
        try {
            Await.until(expectedCount + " messages readable in " + topic, timeout,
                () -> readAll(topic).size() >= expectedCount);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; readable now: " + describe(() -> readAll(topic)), e);
        }
        return readAll(topic);
    }

    /** Like {@link #readAll(String, int, Duration)} for one queue from {@code fromOffset}. */
    public List<MessageExt> readQueue(MessageQueue queue, long fromOffset, int expectedCount, Duration timeout)
        throws Exception {
        try {
            Await.until(expectedCount + " messages readable in " + queue, timeout,
                () -> readQueue(queue, fromOffset).size() >= expectedCount);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; readable now: "
                + describe(() -> readQueue(queue, fromOffset)), e);
        }
        return readQueue(queue, fromOffset);
    }

    /** What a read returns now, or how it fails, for a failure message. */
    private static String describe(Callable<List<MessageExt>> read) {
        try {
            return read.call().toString();
        } catch (Exception e) {
            return "(the read failed: " + e + ")";
        }
    }

    /** The messages of one queue from {@code fromOffset} to its end. */
    public List<MessageExt> readQueue(MessageQueue queue, long fromOffset) throws Exception {
        List<MessageExt> messages = new ArrayList<>();
        long offset = fromOffset;
        for (int pulls = 0; pulls < MAX_PULLS_PER_QUEUE; pulls++) {
            PullResult result = consumer.pull(queue, "*", offset, MAX_MESSAGES_PER_PULL);
            switch (result.getPullStatus()) {
                case FOUND -> messages.addAll(result.getMsgFoundList());
                case NO_MATCHED_MSG -> { }
                case NO_NEW_MSG -> {
                    return messages;
                }
                case OFFSET_ILLEGAL -> throw new AssertionError("pull of " + queue + " at " + offset
                    + " answered OFFSET_ILLEGAL: " + result);
            }
            if (result.getNextBeginOffset() <= offset) {
                throw new AssertionError("pull of " + queue + " at " + offset + " did not advance: " + result);
            }
            offset = result.getNextBeginOffset();
        }
        throw new AssertionError(queue + " did not end within " + MAX_PULLS_PER_QUEUE + " pulls");
    }
}
