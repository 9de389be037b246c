package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.internal.ClientRuntime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pull consumer's side of the pull loops: pulled messages wait here until {@link #poll} hands them out; polled
 * messages stay in their process queue (so flow control still counts them) until {@link #commit} settles them.
 * Confined to the consumer's context.
 */
public final class PollBuffer implements ConsumeService {
    private final ClientRuntime runtime;
    private final OffsetStore offsets;
    private final int maxPollMessages;
    private final Deque<Pulled> buffered = new ArrayDeque<>();
    private final Map<ProcessQueue, List<ReceivedMessage>> polled = new HashMap<>();
    private Promise<List<ReceivedMessage>> waiting;

    public PollBuffer(ClientRuntime runtime, OffsetStore offsets, int maxPollMessages) {
        this.runtime = runtime;
        this.offsets = offsets;
        this.maxPollMessages = maxPollMessages;
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        messages.forEach(message -> buffered.add(new Pulled(queue, message)));
        if (waiting != null) {
            Promise<List<ReceivedMessage>> poller = waiting;
            waiting = null;
            poller.tryComplete(take());
        }
    }

    /** Up to maxPollMessages buffered messages; waits up to {@code timeoutMs} for one, else an empty list. */
    public Future<List<ReceivedMessage>> poll(long timeoutMs) {
        List<ReceivedMessage> ready = take();
        if (!ready.isEmpty() || timeoutMs <= 0) {
            return Future.succeededFuture(ready);
        }
        if (waiting != null) {
            return Future.failedFuture(new IllegalStateException("poll called while another poll waits"));
        }
        Promise<List<ReceivedMessage>> poller = Promise.promise();
        waiting = poller;
        runtime.delay(timeoutMs).onComplete(fired -> {
            if (waiting == poller) {
                waiting = null;
            }
            poller.tryComplete(List.of());
        });
        return poller.future();
    }

    /** Settles every polled message: the offsets move past them (persisted by the caller). */
    public void commit() {
        polled.forEach((queue, messages) -> {
            long offset = queue.remove(messages);
            if (!queue.isDropped() && offset >= 0) {
                offsets.update(queue.queue(), offset, false);
            }
        });
        polled.clear();
    }

    /** Forgets what was buffered or polled from {@code queue} (a seek restarts it). */
    public void discard(MessageQueue queue) {
        buffered.removeIf(pulled -> pulled.queue().queue().equals(queue));
        polled.keySet().removeIf(processQueue -> processQueue.queue().equals(queue));
    }

    private List<ReceivedMessage> take() {
        List<ReceivedMessage> taken = new ArrayList<>();
        while (taken.size() < maxPollMessages && !buffered.isEmpty()) {
            Pulled next = buffered.poll();
            if (next.queue().isDropped()) {
                continue;
            }
            taken.add(next.message());
            polled.computeIfAbsent(next.queue(), queue -> new ArrayList<>()).add(next.message());
        }
        return taken;
    }

    private record Pulled(ProcessQueue queue, ReceivedMessage message) {
    }
}
