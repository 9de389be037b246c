package io.vrmq.broker.topic;

import io.vertx.core.Future;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.json.RemotingJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The broker's topic configurations with their data version, persisted to {@code config/topics.json} in RocketMQ's
 * form. Every change bumps the version, persists, and tells the listeners (the store learns the topic's queues; the
 * registrar registers it with the NameServers at once). Thread-safe: a concurrent map; changes are serialised by
 * {@code synchronized} so that version and table move together.
 */
public final class TopicConfigTable {
    private static final Logger log = LoggerFactory.getLogger(TopicConfigTable.class);

    private final Map<String, TopicConfig> topics = new ConcurrentHashMap<>();
    private final JsonFile file;
    private final RemotingJson json;
    private volatile DataVersion dataVersion = DataVersion.initial(System.currentTimeMillis());
    private final List<Consumer<TopicConfig>> changeListeners = new CopyOnWriteArrayList<>();

    public TopicConfigTable(JsonFile file, RemotingJson json) {
        this.file = file;
        this.json = json;
    }

    public Future<Void> load() {
        return file.read(bytes -> {
            if (bytes != null && bytes.length() > 0) {
                TopicConfigSerializeWrapper stored = json.decode(bytes, TopicConfigSerializeWrapper.class);
                topics.putAll(stored.topicConfigTable());
                if (stored.dataVersion() != null) {
                    dataVersion = stored.dataVersion();
                }
            }
            log.info("{} topic configs loaded from {}", topics.size(), file.path());
            return null;
        });
    }

    /**
     * Adds a listener called, on the changing thread (often an event loop: it must not block), after a topic is
     * created or changed; in the order added. Listeners are added at start-up.
     */
    public void onChange(Consumer<TopicConfig> listener) {
        changeListeners.add(listener);
    }

    public TopicConfig get(String topic) {
        return topics.get(topic);
    }

    public boolean contains(String topic) {
        return topics.containsKey(topic);
    }

    public Map<String, TopicConfig> all() {
        return new TreeMap<>(topics);
    }

    public DataVersion dataVersion() {
        return dataVersion;
    }

    public TopicConfigSerializeWrapper snapshot() {
        synchronized (this) {
            return new TopicConfigSerializeWrapper(all(), dataVersion);
        }
    }

    /** Creates or replaces a topic, persists, notifies. */
    public Future<Void> put(TopicConfig topic) {
        synchronized (this) {
            TopicConfig old = topics.put(topic.topicName(), topic);
            if (topic.equals(old)) {
                return Future.succeededFuture();
            }
            dataVersion = dataVersion.next(System.currentTimeMillis());
            log.info("topic {}: {}", old == null ? "created" : "updated", topic);
        }
        changeListeners.forEach(listener -> listener.accept(topic));
        return persist();
    }

    /** Adds a topic only if absent (system topics, retry and DLQ topics); returns the one in the table. */
    public TopicConfig putIfAbsent(TopicConfig topic) {
        TopicConfig existing = topics.get(topic.topicName());
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            existing = topics.get(topic.topicName());
            if (existing != null) {
                return existing;
            }
            put(topic);
            return topic;
        }
    }

    /**
     * A topic auto-created from a default topic (TBW102) on a send, as RocketMQ does: only when the default topic
     * exists and has the inherit permission; queue count capped by the default topic's; perm without inherit.
     * Returns null when auto-creation is not allowed.
     */
    public TopicConfig createFromDefault(String topic, String defaultTopic, int requestedQueueNums, int topicSysFlag) {
        TopicConfig existing = topics.get(topic);
        if (existing != null) {
            return existing;
        }
        TopicConfig template = topics.get(defaultTopic);
        if (template == null || (template.perm() & Permission.INHERIT) == 0) {
            return null;
        }
        int queueNums = Math.max(1, Math.min(requestedQueueNums, template.writeQueueNums()));
        TopicConfig created = new TopicConfig(topic, queueNums, queueNums, template.perm() & ~Permission.INHERIT,
            TopicConfig.SINGLE_TAG, topicSysFlag, false, Map.of());
        return putIfAbsent(created);
    }

    /**
     * A slave takes its master's whole table and version (metadata sync). Returns false, changing nothing, when the
     * version is the one it already has.
     */
    public boolean replaceAll(Map<String, TopicConfig> masterTopics, DataVersion masterVersion) {
        synchronized (this) {
            if (masterVersion.equals(dataVersion) && masterTopics.equals(topics)) {
                return false;
            }
            topics.keySet().retainAll(masterTopics.keySet());
            topics.putAll(masterTopics);
            dataVersion = masterVersion;
        }
        persist();
        return true;
    }

    /**
     * Controller mode: a role change moves the version's state version to the new master epoch, so that NameServers
     * prefer this registration over one from a broker that held the same role id in an older epoch.
     */
    public Future<Void> advanceStateVersion(long masterEpoch) {
        synchronized (this) {
            dataVersion = dataVersion.next(System.currentTimeMillis(), masterEpoch);
        }
        return persist();
    }

    public Future<Void> delete(String topic) {
        synchronized (this) {
            if (topics.remove(topic) == null) {
                return Future.succeededFuture();
            }
            dataVersion = dataVersion.next(System.currentTimeMillis());
            log.info("topic deleted: {}", topic);
        }
        return persist();
    }

    public Future<Void> persist() {
        return file.write(() -> json.encode(snapshot()));
    }
}
