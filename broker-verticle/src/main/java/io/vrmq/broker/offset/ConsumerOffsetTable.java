package io.vrmq.broker.offset;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.json.RemotingJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Committed consumer offsets: {@code topic@group} → queue id → next queue offset to consume. Persisted to
 * {@code config/consumerOffset.json} (RocketMQ's {@code {"offsetTable":{..}}} form) every
 * flushConsumerOffsetInterval and on shutdown, so a crash loses at most that interval of commits (consumers then
 * see those messages again: at-least-once). Thread-safe.
 */
public final class ConsumerOffsetTable {
    private static final Logger log = LoggerFactory.getLogger(ConsumerOffsetTable.class);
    private static final String SEPARATOR = "@";

    private final Map<String, Map<Integer, Long>> offsets = new ConcurrentHashMap<>();
    private final JsonFile file;
    private final RemotingJson json;
    private volatile boolean isDirty;

    public ConsumerOffsetTable(JsonFile file, RemotingJson json) {
        this.file = file;
        this.json = json;
    }

    public Future<Void> load() {
        return file.read(bytes -> {
            if (bytes != null && bytes.length() > 0) {
                JsonNode table = json.decode(bytes, JsonNode.class).path("offsetTable");
                table.fields().forEachRemaining(entry -> {
                    Map<Integer, Long> queues = new ConcurrentHashMap<>();
                    entry.getValue().fields().forEachRemaining(queue -> queues.put(Integer.parseInt(queue.getKey()),
                        queue.getValue().asLong()));
                    offsets.put(entry.getKey(), queues);
                });
            }
            log.info("{} consumer offset entries loaded from {}", offsets.size(), file.path());
            return null;
        });
    }

    public void commit(String group, String topic, int queueId, long offset) {
        offsets.computeIfAbsent(key(topic, group), k -> new ConcurrentHashMap<>()).put(queueId, offset);
        isDirty = true;
    }

    /** The committed offset, or -1 when the group never committed one for this queue. */
    public long query(String group, String topic, int queueId) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        Long offset = queues == null ? null : queues.get(queueId);
        return offset == null ? -1 : offset;
    }

    /** Queue id → offset for one group and topic (a copy; empty when none). */
    public Map<Integer, Long> offsetsOf(String group, String topic) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        return queues == null ? Map.of() : new TreeMap<>(queues);
    }

    /** Groups that committed offsets on {@code topic}. */
    public Set<String> groupsOf(String topic) {
        Set<String> groups = new TreeSet<>();
        for (String key : offsets.keySet()) {
            int at = key.lastIndexOf(SEPARATOR);
            if (key.substring(0, at).equals(topic)) {
                groups.add(key.substring(at + 1));
            }
        }
        return groups;
    }

    /** Topics on which {@code group} committed offsets. */
    public Set<String> topicsOf(String group) {
        Set<String> topics = new TreeSet<>();
        for (String key : offsets.keySet()) {
            int at = key.lastIndexOf(SEPARATOR);
            if (key.substring(at + 1).equals(group)) {
                topics.add(key.substring(0, at));
            }
        }
        return topics;
    }

    /**
     * Group → the topics it committed offsets on, in one pass over the table (a per-topic {@link #groupsOf} for
     * every topic would scan the table once per topic: 1,250 x 1,250 keys on a scrape with 1,250 topics).
     */
    public Map<String, Set<String>> topicsByGroup() {
        Map<String, Set<String>> byGroup = new TreeMap<>();
        for (String key : offsets.keySet()) {
            int at = key.lastIndexOf(SEPARATOR);
            byGroup.computeIfAbsent(key.substring(at + 1), ignored -> new TreeSet<>()).add(key.substring(0, at));
        }
        return byGroup;
    }

    /** Every committed offset: {@code topic@group} → queue id → offset (a copy, RocketMQ's offsetTable). */
    public Map<String, Map<Integer, Long>> snapshot() {
        Map<String, Map<Integer, Long>> copy = new TreeMap<>();
        offsets.forEach((key, queues) -> copy.put(key, new TreeMap<>(queues)));
        return copy;
    }

    /**
     * A slave takes its master's offsets (metadata sync): the master's win, offsets only the slave has stay (a
     * consumer may have committed them here while the master was down), as RocketMQ's putAll does.
     */
    public void putAll(Map<String, Map<Integer, Long>> masterOffsets) {
        masterOffsets.forEach((key, queues) -> {
            Map<Integer, Long> mine = offsets.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
            if (!mine.equals(queues)) {
                mine.putAll(queues);
                isDirty = true;
            }
        });
    }

    public void removeTopic(String topic) {
        if (offsets.keySet().removeIf(key -> key.substring(0, key.lastIndexOf(SEPARATOR)).equals(topic))) {
            isDirty = true;
        }
    }

    /** Forgets every offset {@code group} committed (DELETE_SUBSCRIPTIONGROUP with cleanOffset). */
    public void removeGroup(String group) {
        if (offsets.keySet().removeIf(key -> key.substring(key.lastIndexOf(SEPARATOR) + 1).equals(group))) {
            isDirty = true;
        }
    }

    /** Writes the table if anything changed since the last write. */
    public Future<Void> persistIfDirty() {
        if (!isDirty) {
            return Future.succeededFuture();
        }
        isDirty = false;
        return file.write(() -> json.encode(Map.of("offsetTable", snapshot())));
    }

    private static String key(String topic, String group) {
        return topic + SEPARATOR + group;
    }
}
