package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ConsumeOrderlyStatus;
import io.vrmq.client.MessageListenerOrderly;
import io.vrmq.client.MessageModel;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.trace.ConsumerTrace;
import io.vrmq.client.trace.TraceText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Orderly consumption (RocketMQ's ConsumeMessageOrderlyService): per queue one batch at a time, in queue order, and
 * in CLUSTERING only while this consumer holds the queue's lock on the broker. SUSPEND_CURRENT_QUEUE_A_MOMENT
 * delivers the same batch again after suspendCurrentQueueMs with reconsumeTimes + 1; past maxReconsumeTimes the
 * batch goes to the dead-letter topic and the queue moves on. Confined to the consumer's context.
 */
public final class OrderlyConsumeService implements ConsumeService {
    private static final Logger log = LoggerFactory.getLogger(OrderlyConsumeService.class);
    /** send-back delay level that means "straight to the dead-letter topic". */
    private static final int DEAD_LETTER_LEVEL = -1;

    private final ClientRuntime runtime;
    private final MessageListenerOrderly listener;
    private final OffsetStore offsets;
    private final SendBackService sendBack;
    private final MessageModel model;
    private final int batchSize;
    private final long suspendMs;
    private final int maxReconsumeTimes;
    private final ConsumerTrace trace;

    public OrderlyConsumeService(ClientRuntime runtime, MessageListenerOrderly listener, OffsetStore offsets,
                                 SendBackService sendBack, MessageModel model, int batchSize, long suspendMs,
                                 int maxReconsumeTimes, ConsumerTrace trace) {
        this.runtime = runtime;
        this.listener = listener;
        this.offsets = offsets;
        this.sendBack = sendBack;
        this.model = model;
        this.batchSize = batchSize;
        this.suspendMs = suspendMs;
        this.maxReconsumeTimes = maxReconsumeTimes;
        this.trace = trace;
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        consumeNext(queue);
    }

    /** Also called when a lock is granted, to resume a queue that waited for it. */
    public void consumeNext(ProcessQueue queue) {
        if (queue.isDropped() || queue.isConsumingOrderly()) {
            return;
        }
        if (model == MessageModel.CLUSTERING && !queue.isLocked()) {
            return;    // the lock renewal calls consumeNext again once the lock is granted
        }
        List<ReceivedMessage> batch = queue.takeOrdered(batchSize);
        if (batch.isEmpty()) {
            return;
        }
        queue.setConsumingOrderly(true);
        callListener(batch, queue).onComplete(outcome -> {
            queue.setConsumingOrderly(false);
            if (queue.isDropped()) {
                return;
            }
            if (outcome.succeeded() && outcome.result() == ConsumeOrderlyStatus.SUCCESS) {
                offsets.update(queue.queue(), queue.commitOrdered(), false);
                // the next batch in a new event-loop task: a listener that completes at once would otherwise
                // recurse once per held message
                runtime.context().runOnContext(next -> consumeNext(queue));
            } else {
                retryOrGiveUp(queue, batch);
            }
        });
    }

    private void retryOrGiveUp(ProcessQueue queue, List<ReceivedMessage> batch) {
        boolean isExhausted = batch.stream().anyMatch(message -> message.reconsumeTimes() >= maxReconsumeTimes);
        if (!isExhausted || model == MessageModel.BROADCASTING) {
            queue.giveBackOrdered(message -> message.withReconsumeTimes(message.reconsumeTimes() + 1));
            runtime.delay(suspendMs).onComplete(fired -> consumeNext(queue));
            return;
        }
        Future.all(batch.stream().map(message -> sendBack.sendBack(message, DEAD_LETTER_LEVEL)).toList())
            .onComplete(sent -> {
                if (sent.succeeded()) {
                    log.warn("{} message(s) of {} reached maxReconsumeTimes {}: sent to the dead-letter topic",
                        batch.size(), queue.queue(), maxReconsumeTimes);
                    offsets.update(queue.queue(), queue.commitOrdered(), false);
                } else {
                    queue.giveBackOrdered(message -> message);
                }
                runtime.delay(suspendMs).onComplete(fired -> consumeNext(queue));
            });
    }

    /** The listener's answer; a throw or a null suspends the queue. Traced SubBefore/SubAfter when trace is on. */
    private Future<ConsumeOrderlyStatus> callListener(List<ReceivedMessage> batch, ProcessQueue queue) {
        ConsumerTrace.Started traced = trace.before(batch);
        Future<ConsumeOrderlyStatus> result;
        try {
            result = listener.consume(batch, queue.queue());
        } catch (RuntimeException e) {
            log.warn("orderly listener threw on {} message(s) of {}", batch.size(), queue.queue(), e);
            trace.after(traced, false, TraceText.RETURN_EXCEPTION);
            return Future.succeededFuture(ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT);
        }
        if (result == null) {
            trace.after(traced, false, TraceText.RETURN_NULL);
            return Future.succeededFuture(ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT);
        }
        return traced == null ? result : result.transform(outcome -> {
            boolean isSuccess = outcome.succeeded() && outcome.result() == ConsumeOrderlyStatus.SUCCESS;
            trace.after(traced, isSuccess, outcome.failed() ? TraceText.RETURN_EXCEPTION
                : outcome.result() == null ? TraceText.RETURN_NULL
                : isSuccess ? TraceText.RETURN_SUCCESS : TraceText.RETURN_FAILED);
            return outcome.succeeded() ? Future.succeededFuture(outcome.result())
                : Future.failedFuture(outcome.cause());
        });
    }
}
