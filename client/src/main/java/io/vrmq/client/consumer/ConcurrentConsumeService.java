package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.MessageModel;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.trace.ConsumerTrace;
import io.vrmq.client.trace.TraceText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Concurrent consumption (RocketMQ's ConsumeMessageConcurrentlyService): batches of up to
 * consumeMessageBatchMaxSize messages go to the listener, at most consumeConcurrency of them at a time (the official
 * consumer's consumeThreadMax; the rest wait in arrival order). A consumed batch leaves the process queue and
 * moves the queue's offset; a failed one is sent back for a retry (CLUSTERING) and then leaves; a message whose send
 * back failed too is consumed here again after localRetryMs. BROADCASTING failures are dropped, as RocketMQ drops
 * them. Results for a queue that was meanwhile released are ignored: its next owner consumes from the committed
 * offset. Confined to the consumer's context.
 */
public final class ConcurrentConsumeService implements ConsumeService {
    private static final Logger log = LoggerFactory.getLogger(ConcurrentConsumeService.class);

    private final ClientRuntime runtime;
    private final MessageListenerConcurrently listener;
    private final OffsetStore offsets;
    private final SendBackService sendBack;
    private final MessageModel model;
    private final int batchSize;
    private final long localRetryMs;
    private final int maxConsuming;
    private final ConsumerTrace trace;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private int consuming;
    private boolean isStartingWaiting;

    public ConcurrentConsumeService(ClientRuntime runtime, MessageListenerConcurrently listener, OffsetStore offsets,
                                    SendBackService sendBack, MessageModel model, int batchSize, long localRetryMs,
                                    int maxConsuming, ConsumerTrace trace) {
        this.runtime = runtime;
        this.listener = listener;
        this.offsets = offsets;
        this.sendBack = sendBack;
        this.model = model;
        this.batchSize = batchSize;
        this.localRetryMs = localRetryMs;
        this.maxConsuming = maxConsuming;
        this.trace = trace;
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        for (int start = 0; start < messages.size(); start += batchSize) {
            consume(queue, List.copyOf(messages.subList(start, Math.min(messages.size(), start + batchSize))));
        }
    }

    private void consume(ProcessQueue queue, List<ReceivedMessage> batch) {
        if (queue.isDropped()) {
            return;
        }
        if (consuming >= maxConsuming) {
            waiting.add(() -> consume(queue, batch));
            return;
        }
        consuming++;
        callListener(batch, queue).onComplete(outcome -> {
            consuming--;
            startWaiting();
            if (queue.isDropped()) {
                return;
            }
            if (outcome.succeeded() && outcome.result() == ConsumeConcurrentlyStatus.CONSUME_SUCCESS) {
                settle(queue, batch);
            } else if (model == MessageModel.BROADCASTING) {
                log.warn("BROADCASTING: {} message(s) of {} not consumed and dropped", batch.size(), queue.queue());
                settle(queue, batch);
            } else {
                sendBackAll(queue, batch);
            }
        });
    }

    /**
     * Fills the free listener slots with waiting batches (those of dropped queues are skipped by consume). Not
     * re-entered: a listener that completes at once would otherwise recurse once per waiting batch.
     */
    private void startWaiting() {
        if (isStartingWaiting) {
            return;
        }
        isStartingWaiting = true;
        try {
            while (consuming < maxConsuming && !waiting.isEmpty()) {
                waiting.poll().run();
            }
        } finally {
            isStartingWaiting = false;
        }
    }

    /** The listener's answer; a throw or a null is RECONSUME_LATER. Traced SubBefore/SubAfter when trace is on. */
    private Future<ConsumeConcurrentlyStatus> callListener(List<ReceivedMessage> batch, ProcessQueue queue) {
        ConsumerTrace.Started traced = trace.before(batch);
        Future<ConsumeConcurrentlyStatus> result;
        try {
            result = listener.consume(batch, queue.queue());
        } catch (RuntimeException e) {
            log.warn("listener threw on {} message(s) of {}", batch.size(), queue.queue(), e);
            trace.after(traced, false, TraceText.RETURN_EXCEPTION);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        }
        if (result == null) {
            trace.after(traced, false, TraceText.RETURN_NULL);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        }
        return traced == null ? result : result.transform(outcome -> {
            boolean isSuccess = outcome.succeeded() && outcome.result() == ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            trace.after(traced, isSuccess, outcome.failed() ? TraceText.RETURN_EXCEPTION
                : outcome.result() == null ? TraceText.RETURN_NULL
                : isSuccess ? TraceText.RETURN_SUCCESS : TraceText.RETURN_FAILED);
            return outcome.succeeded() ? Future.succeededFuture(outcome.result())
                : Future.failedFuture(outcome.cause());
        });
    }

    private void sendBackAll(ProcessQueue queue, List<ReceivedMessage> batch) {
        List<Future<ReceivedMessage>> sent = new ArrayList<>();
        for (ReceivedMessage message : batch) {
            sent.add(sendBack.sendBack(message, 0).map(message));
        }
        Future.join(sent).onComplete(ignored -> {
            List<ReceivedMessage> done = new ArrayList<>();
            List<ReceivedMessage> again = new ArrayList<>();
            for (int index = 0; index < batch.size(); index++) {
                (sent.get(index).succeeded() ? done : again).add(batch.get(index));
            }
            settle(queue, done);
            if (!again.isEmpty()) {
                List<ReceivedMessage> retried = again.stream()
                    .map(message -> message.withReconsumeTimes(message.reconsumeTimes() + 1)).toList();
                runtime.delay(localRetryMs).onComplete(fired -> consume(queue, retried));
            }
        });
    }

    private void settle(ProcessQueue queue, List<ReceivedMessage> batch) {
        long offset = queue.remove(batch);
        if (offset >= 0 && !queue.isDropped()) {
            offsets.update(queue.queue(), offset, true);
        }
    }
}
