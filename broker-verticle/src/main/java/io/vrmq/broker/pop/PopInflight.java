package io.vrmq.broker.pop;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many popped messages are in flight (handed out, neither acked nor revived yet) per group, topic and queue:
 * what GET_CONSUME_STATS, the admin API and the gauges show. Written by the {@link InflightTable} on the broker's
 * context, read from any thread.
 */
public final class PopInflight {
    private final Map<QueueKey, AtomicLong> counts = new ConcurrentHashMap<>();
    private final Map<QueueKey, AtomicLong> orderlyCounts = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();

    /** Messages of a non-orderly pop: they lie below the queue's pop offset. */
    void add(QueueKey queue, long delta) {
        add(counts, queue, delta);
    }

    /** Messages of an orderly pop: they lie at and above the queue's committed offset. */
    void addOrderly(QueueKey queue, long delta) {
        add(orderlyCounts, queue, delta);
    }

    private void add(Map<QueueKey, AtomicLong> into, QueueKey queue, long delta) {
        if (delta == 0) {
            return;
        }
        AtomicLong count = into.computeIfAbsent(queue, key -> new AtomicLong());
        if (count.addAndGet(delta) <= 0) {
            into.remove(queue, count);
        }
        total.addAndGet(delta);
    }

    void clear() {
        counts.clear();
        orderlyCounts.clear();
        total.set(0);
    }

    /** Messages of {@code group} popped from {@code topic}/{@code queueId} and still in flight. */
    public long count(String group, String topic, int queueId) {
        return countIn(counts, group, topic, queueId) + orderlyCount(group, topic, queueId);
    }

    /** The part of {@link #count} that orderly pops hold. */
    public long orderlyCount(String group, String topic, int queueId) {
        return countIn(orderlyCounts, group, topic, queueId);
    }

    private static long countIn(Map<QueueKey, AtomicLong> counts, String group, String topic, int queueId) {
        AtomicLong count = counts.get(new QueueKey(group, topic, queueId));
        return count == null ? 0 : Math.max(0, count.get());
    }

    /** Topics on which {@code group} has messages in flight on this broker. */
    public Set<String> topicsOf(String group) {
        Set<String> topics = new TreeSet<>();
        for (Map<QueueKey, AtomicLong> each : List.of(counts, orderlyCounts)) {
            for (QueueKey queue : each.keySet()) {
                if (queue.group().equals(group)) {
                    topics.add(queue.topic());
                }
            }
        }
        return topics;
    }

    public long total() {
        return Math.max(0, total.get());
    }
}
