package io.vrmq.client.consumer;

import io.vrmq.client.MessageModel;
import io.vrmq.client.ConsumerOptions;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One long-polling pull loop per assigned queue (RocketMQ's PullMessageService + PullAPIWrapper): one PULL_MESSAGE
 * in flight per queue, held by the broker up to suspendTimeoutMs when there is nothing new, carrying the cached
 * consume offset for the broker to commit. A queue holding more than pullThresholdForQueue messages or
 * pullThresholdSizeForQueue bytes waits (flow control) until its listener catches up. Pulled records are decoded,
 * re-filtered by tag, given MIN_OFFSET/MAX_OFFSET, and retry copies get their original topic back. The loop of a
 * dropped queue stops at its next step. Confined to the consumer's context.
 */
public final class PullService {
    private static final Logger log = LoggerFactory.getLogger(PullService.class);

    private final ClientRuntime runtime;
    private final ConsumerOptions options;
    private final ConsumerBrokerApi broker;
    private final OffsetStore offsets;
    private final Function<String, SubscriptionData> subscriptions;
    private final ConsumeService consumer;
    private final String retryTopic;
    private final boolean isOrderlyClustering;
    private final boolean isSubscriptionInPull;

    public PullService(ClientRuntime runtime, ConsumerOptions options, ConsumerBrokerApi broker,
                       OffsetStore offsets, Function<String, SubscriptionData> subscriptions, ConsumeService consumer,
                       boolean isOrderly, boolean isSubscriptionInPull) {
        this.runtime = runtime;
        this.options = options;
        this.broker = broker;
        this.offsets = offsets;
        this.subscriptions = subscriptions;
        this.consumer = consumer;
        this.retryTopic = ConsumerTopics.retryTopic(options.getConsumerGroup());
        this.isOrderlyClustering = isOrderly && options.getMessageModel() == MessageModel.CLUSTERING;
        this.isSubscriptionInPull = isSubscriptionInPull;
    }

    public void start(ProcessQueue queue, long offset) {
        pull(queue, offset);
    }

    private void pull(ProcessQueue queue, long offset) {
        if (queue.isDropped()) {
            return;
        }
        if (queue.heldCount() > options.getPullThresholdForQueue()
            || queue.heldBytes() > options.pullThresholdBytesForQueue()) {
            log.debug("flow control on {}: {} messages, {} bytes held", queue.queue(), queue.heldCount(),
                queue.heldBytes());
            queue.markFlowControlled();
            later(queue, offset, options.getFlowControlRetryMs());
            return;
        }
        if (isOrderlyClustering && !queue.isLocked()) {
            later(queue, offset, options.getPullErrorRetryMs());
            return;
        }
        SubscriptionData subscription = subscriptions.apply(queue.queue().topic());
        if (subscription == null) {
            later(queue, offset, options.getPullErrorRetryMs());
            return;
        }
        long commitOffset = options.getMessageModel() == MessageModel.CLUSTERING
            ? offsets.readFromMemory(queue.queue()) : 0;
        queue.markPulled(System.currentTimeMillis());
        broker.pull(queue.queue(), offset, options.getPullBatchSize(), commitOffset, subscription,
                isSubscriptionInPull, options.getSuspendTimeoutMs(), options.getPullTimeoutMs())
            .onComplete(outcome -> {
                if (queue.isDropped()) {
                    return;
                }
                if (outcome.failed()) {
                    log.debug("pull of {} at {} failed: {}", queue.queue(), offset, outcome.cause().toString());
                    later(queue, offset, options.getPullErrorRetryMs());
                    return;
                }
                onResult(queue, offset, outcome.result(), subscription);
            });
    }

    private void onResult(ProcessQueue queue, long offset, PullResult result, SubscriptionData subscription) {
        switch (result.code()) {
            case ResponseCode.SUCCESS -> {
                List<ReceivedMessage> messages = accepted(result, subscription);
                if (messages.isEmpty()) {
                    skipFiltered(queue, result.nextBeginOffset());
                } else {
                    queue.put(messages);
                    consumer.submit(queue, messages);
                }
                pull(queue, result.nextBeginOffset());
            }
            case ResponseCode.PULL_NOT_FOUND, ResponseCode.PULL_RETRY_IMMEDIATELY -> {
                skipFiltered(queue, result.nextBeginOffset());
                pull(queue, result.nextBeginOffset());
            }
            default -> {
                log.warn("pull of {} at {}: offset moved, continuing at {}", queue.queue(), offset,
                    result.nextBeginOffset());
                offsets.update(queue.queue(), result.nextBeginOffset(), false);
                later(queue, result.nextBeginOffset(), options.getFlowControlRetryMs());
            }
        }
    }

    /** Nothing held and nothing matched up to {@code nextOffset}: the offset may move past it (correctTagsOffset). */
    private void skipFiltered(ProcessQueue queue, long nextOffset) {
        if (queue.heldCount() == 0) {
            offsets.update(queue.queue(), nextOffset, true);
        }
    }

    private List<ReceivedMessage> accepted(PullResult result, SubscriptionData subscription) {
        List<ReceivedMessage> accepted = new ArrayList<>(result.messages().size());
        for (ReceivedMessage message : result.messages()) {
            if (!subscription.tagsSet().isEmpty() && !subscription.classFilterMode()
                && !subscription.tagsSet().contains(message.tags())) {
                continue;
            }
            Map<String, String> properties = new HashMap<>(message.properties());
            properties.put(MessageConst.MIN_OFFSET, Long.toString(result.minOffset()));
            properties.put(MessageConst.MAX_OFFSET, Long.toString(result.maxOffset()));
            ReceivedMessage received = message.withProperties(properties);
            String originalTopic = properties.get(MessageConst.RETRY_TOPIC);
            if (originalTopic != null && retryTopic.equals(message.topic())) {
                received = received.withTopic(originalTopic);
            }
            accepted.add(received);
        }
        return accepted;
    }

    private void later(ProcessQueue queue, long offset, long delayMs) {
        runtime.delay(delayMs).onComplete(fired -> pull(queue, offset));
    }
}
