package io.vrmq.compat.broker.support;

import java.time.Duration;
import java.util.Set;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.common.message.MessageQueue;

/** Consumer offsets as the official push consumer holds them. Test thread only. */
public final class Offsets {

    private Offsets() {
    }

    /**
     * Waits until the consumer's own offset for every queue of {@code topic} it owns is the queue's max offset: it has
     * consumed (or filtered out) everything stored, so its shutdown will persist offsets past every message. A
     * listener sees a message before the client advances its offset, so "all received" alone comes too early.
     */
    @SuppressWarnings("deprecation")
    public static void awaitConsumedToTheEnd(DefaultMQPushConsumer consumer, String topic, Duration timeout) {
        Await.until(consumer.getInstanceName() + " at the end of every queue of " + topic, timeout, () -> {
            Set<MessageQueue> owned = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl()
                .getProcessQueueTable().keySet();
            boolean isAnyOwned = false;
            for (MessageQueue queue : owned) {
                if (!queue.getTopic().equals(topic)) {
                    continue;
                }
                isAnyOwned = true;
                long consumed = consumer.getDefaultMQPushConsumerImpl().getOffsetStore()
                    .readOffset(queue, ReadOffsetType.READ_FROM_MEMORY);
                if (consumed != consumer.maxOffset(queue)) {
                    return false;
                }
            }
            return isAnyOwned;
        });
    }
}
