package io.vrmq.broker.pop;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * RocketMQ's PopLongPollingService: POP (or NOTIFICATION) requests that found nothing wait here under
 * {@code topic@group@queueId} (queueId -1 for a pop of every queue) until a message arrives on the topic or on one of
 * the group's POP retry topics for it, an orderly queue is unblocked, or the request's deadline (bornTime + pollTime)
 * passes; then it runs again, whole. As in RocketMQ an arrival wakes one request per key (that pop takes up to a whole
 * batch, and wakes the next one when messages are left). A held request costs a queue entry and a timer, no thread.
 * <p>
 * Limits: popPollingSize per key (a key already holding more answers POLLING_FULL, RocketMQ's check) and
 * maxPopPollingSize in all.
 * <p>
 * Threads: held requests are confined to the broker's context; the store's dispatcher only notes which topics
 * advanced and by how many messages, in a concurrent map, and schedules one hop to the context (many dispatches
 * coalesce into one pass, which wakes one request per key for each message counted: a pass that woke one request
 * for two messages left the second to wait for the next arrival or the poll time).
 */
final class PopHolds {
    /** How a hold attempt ended. */
    enum Outcome { HELD, FULL, TIMEOUT }

    private final Vertx vertx;
    private final Context context;
    private final int perKeyLimit;
    private final int totalLimit;
    private final Map<PollKey, ArrayDeque<Held>> heldByKey = new HashMap<>();
    /** Topic (a real topic or a POP retry topic) to the topic and group pairs whose held requests it wakes. */
    private final Map<String, Set<TopicGroup>> watchers = new HashMap<>();
    private final Map<TopicGroup, Set<PollKey>> keysByTarget = new HashMap<>();
    private final Map<Held, Long> expiryTimers = new IdentityHashMap<>();
    /** Topic to the messages dispatched to it since the last wake pass. */
    private final Map<String, Integer> advanced = new ConcurrentHashMap<>();
    private final AtomicBoolean isWakeScheduled = new AtomicBoolean();
    private volatile int heldCount;

    PopHolds(Vertx vertx, Context context, int perKeyLimit, int totalLimit) {
        this.vertx = vertx;
        this.context = context;
        this.perKeyLimit = perKeyLimit;
        this.totalLimit = totalLimit;
    }

    /** The wait key: a topic as the request names it, its group and queue id (-1: all queues). */
    record PollKey(String topic, String group, int queueId) {
    }

    private record TopicGroup(String topic, String group) {
    }

    private record Held(PollKey key, Runnable rerun) {
    }

    /**
     * Holds a request until {@code deadlineMs}; {@code rerun} runs it again on a wake-up or at the deadline.
     * Context only.
     */
    Outcome hold(PollKey key, long deadlineMs, Runnable rerun) {
        if (heldCount >= totalLimit) {
            return Outcome.FULL;
        }
        long nowMs = System.currentTimeMillis();
        if (deadlineMs <= nowMs) {
            return Outcome.TIMEOUT;
        }
        ArrayDeque<Held> queue = heldByKey.computeIfAbsent(key, k -> new ArrayDeque<>());
        if (queue.size() > perKeyLimit) {
            return Outcome.FULL;
        }
        Held held = new Held(key, rerun);
        queue.addLast(held);
        heldCount++;
        watch(key);
        expiryTimers.put(held, vertx.setTimer(deadlineMs - nowMs, id -> expire(held)));
        return Outcome.HELD;
    }

    /** Requests held now (any thread; may be a moment old). */
    int heldCount() {
        return heldCount;
    }

    /** Requests held under one key. Context only. */
    int heldCount(PollKey key) {
        ArrayDeque<Held> queue = heldByKey.get(key);
        return queue == null ? 0 : queue.size();
    }

    /** Dispatcher thread: a message was dispatched to {@code topic}. Cheap and non-blocking. */
    void onDispatched(String topic) {
        if (heldCount == 0) {
            return;
        }
        advanced.merge(topic, 1, Integer::sum);
        if (isWakeScheduled.compareAndSet(false, true)) {
            context.runOnContext(ignored -> wakeAdvanced());
        }
    }

    /** Wakes one request waiting on this queue and one waiting on all queues of the topic. Context only. */
    void notifyArrived(String topic, String group, int queueId) {
        wakeOne(new PollKey(topic, group, PopMessageRequest.ALL_QUEUES));
        if (queueId >= 0) {
            wakeOne(new PollKey(topic, group, queueId));
        }
    }

    /** Runs every held request once more (they answer at once: this broker stops serving POP). Context only. */
    void wakeAll() {
        for (PollKey key : new HashSet<>(heldByKey.keySet())) {
            while (wakeOne(key)) {
                // each woken request is removed first, so this ends
            }
        }
    }

    private void wakeAdvanced() {
        isWakeScheduled.set(false);
        for (String topic : advanced.keySet()) {
            Integer arrivals = advanced.remove(topic);
            Set<TopicGroup> waiting = watchers.get(topic);
            if (arrivals == null || waiting == null) {
                continue;
            }
            for (TopicGroup target : Set.copyOf(waiting)) {
                for (int woken = 0; woken < arrivals && wakeTopicGroup(target); woken++) {
                    // one request of each key per message: a request of a batch of one takes one message
                }
            }
        }
    }

    /** A message arrived for the pair: wake one request of each of its keys; false when none was held. */
    private boolean wakeTopicGroup(TopicGroup target) {
        Set<PollKey> keys = keysByTarget.get(target);
        boolean isAnyWoken = false;
        if (keys != null) {
            for (PollKey key : Set.copyOf(keys)) {
                isAnyWoken |= wakeOne(key);
            }
        }
        return isAnyWoken;
    }

    private boolean wakeOne(PollKey key) {
        ArrayDeque<Held> queue = heldByKey.get(key);
        Held held = queue == null ? null : queue.pollFirst();
        if (held == null) {
            return false;
        }
        if (queue.isEmpty()) {
            forget(key);
        }
        heldCount--;
        Long timer = expiryTimers.remove(held);
        if (timer != null) {
            vertx.cancelTimer(timer);
        }
        // Its own turn: a woken pop may wake the next one, and a chain of them must not nest.
        context.runOnContext(ignored -> held.rerun().run());
        return true;
    }

    private void expire(Held held) {
        expiryTimers.remove(held);
        ArrayDeque<Held> queue = heldByKey.get(held.key());
        if (queue != null && queue.remove(held)) {
            heldCount--;
            if (queue.isEmpty()) {
                forget(held.key());
            }
            held.rerun().run();
        }
    }

    /** The key holds nothing any more; neither does its topic and group once their last key is gone. */
    private void forget(PollKey key) {
        heldByKey.remove(key);
        TopicGroup target = new TopicGroup(key.topic(), key.group());
        Set<PollKey> keys = keysByTarget.get(target);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            keysByTarget.remove(target);
            unwatch(target);
        }
    }

    private void watch(PollKey key) {
        TopicGroup target = new TopicGroup(key.topic(), key.group());
        keysByTarget.computeIfAbsent(target, t -> new HashSet<>()).add(key);
        watchers.computeIfAbsent(key.topic(), t -> new HashSet<>()).add(target);
        watchers.computeIfAbsent(PopNames.retryTopic(key.topic(), key.group(), false), t -> new HashSet<>())
            .add(target);
        watchers.computeIfAbsent(PopNames.retryTopic(key.topic(), key.group(), true), t -> new HashSet<>())
            .add(target);
    }

    private void unwatch(TopicGroup target) {
        for (String topic : new String[] {target.topic(), PopNames.retryTopic(target.topic(), target.group(), false),
            PopNames.retryTopic(target.topic(), target.group(), true)}) {
            Set<TopicGroup> waiting = watchers.get(topic);
            if (waiting != null && waiting.remove(target) && waiting.isEmpty()) {
                watchers.remove(topic);
            }
        }
    }
}
