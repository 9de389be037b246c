package io.vrmq.broker.store;

import io.vertx.core.Future;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Tells the store which queues the broker's topic table holds ({@link MessageStore#declareQueues}): every topic's
 * at start, before the broker serves, and a topic's when it is created or changed. Under ASYNC_FLUSH the store then
 * writes the first reserved offset bounds of many queues in one forced write, instead of one force at each queue's
 * first append (10,000 configured queues took 10,000 forces: benchmark/RESULTS.md, "Seeded queues").
 *
 * <p>A topic has max(readQueueNums, writeQueueNums) queues. Only additions matter: the store never lowers or forgets
 * a queue's next offset here, so a shrunk queue count changes nothing and a grown one declares the new queues; a
 * deleted topic is forgotten by {@link MessageStore#deleteTopic}.
 *
 * <p>Threads: any (often an event loop, from the topic table's change listener); the declaration runs on the
 * store's writer, after the writes handed over before it and before those handed over after it (so a send that
 * auto-created its topic is appended after the topic's queues were declared).
 */
public final class StoreQueueDeclarer {
    private static final Logger log = LoggerFactory.getLogger(StoreQueueDeclarer.class);

    private final StoreAccess store;

    public StoreQueueDeclarer(StoreAccess store) {
        this.store = store;
    }

    /** Declares every topic's queues; completes with the queues the store did not know yet. */
    public Future<Integer> declareAll(Map<String, TopicConfig> topics) {
        Map<String, Integer> queueCounts = new HashMap<>();
        topics.forEach((name, topic) -> queueCounts.put(name, queueCount(topic)));
        return store.afterQueuedWrites(() -> store.store().declareQueues(queueCounts))
            .onSuccess(added -> log.info("store told of {} topics' queues: {} new", queueCounts.size(), added));
    }

    /** A topic created or changed (the topic table's change listener). A failure is logged: appends still reserve. */
    public void declare(TopicConfig topic) {
        Map<String, Integer> queueCounts = Map.of(topic.topicName(), queueCount(topic));
        store.afterQueuedWrites(() -> store.store().declareQueues(queueCounts))
            .onFailure(error -> log.warn("topic {}: telling the store of its {} queues failed; each queue's first"
                + " append reserves its own offsets", topic.topicName(), queueCount(topic), error));
    }

    private static int queueCount(TopicConfig topic) {
        return Math.max(topic.readQueueNums(), topic.writeQueueNums());
    }
}
