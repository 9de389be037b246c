package io.vrmq.load;

import io.vrmq.loadcommon.DeliveryTracker;

import java.nio.ByteBuffer;
import java.util.List;

import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The push consumer's listener of {@link MessageLoadBench}: hands each delivery to the run's {@link DeliveryTracker}
 * and consumes it. Called on the consumer's consume threads (the tracker is thread-safe).
 */
final class DeliveryListener implements MessageListenerConcurrently {

    private final DeliveryTracker tracker;

    DeliveryListener(DeliveryTracker tracker) {
        this.tracker = tracker;
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        long now = System.nanoTime();
        for (MessageExt message : messages) {
            byte[] body = message.getBody();
            tracker.delivered(body == null ? null : ByteBuffer.wrap(body), now);
        }
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }
}
