package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.store.queue.ReservedOffsetsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The broker tells its store (ASYNC_FLUSH, the default) which queues its topics have, so that their first reserved
 * offset bounds are forced together rather than one force at each queue's first append. Seen from outside in the
 * store's reserved offsets file: every queue of a topic has a bound although only one was written, or none.
 */
@ExtendWith(VertxExtension.class)
class StoreKnowsTopicQueuesIT {
    private static final Set<Integer> EIGHT_QUEUES = Set.of(0, 1, 2, 3, 4, 5, 6, 7);

    /** Topics in topics.json before the start: the first send's forced write covers every queue of them. */
    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void theFirstSendCoversEveryQueueOfTheConfiguredTopics(Vertx vertx, VertxTestContext test,
                                                           @TempDir Path storeDir) throws IOException {
        writeTopics(storeDir, "Configured_0", "Configured_1");
        AdminTestBroker.with(vertx, storeDir, broker -> broker.send("Configured_0", 0, Map.of(), "first")
                .compose(sent -> bounds(vertx, storeDir)))
            .map(bounds -> {
                assertEquals(EIGHT_QUEUES, bounds.get("Configured_0").keySet());
                assertEquals(EIGHT_QUEUES, bounds.get("Configured_1").keySet(), "a topic not written at all");
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    /** UPDATE_AND_CREATE_TOPIC after the first send: the new topic's queues get bounds before any message. */
    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aTopicCreatedAtRuntimeGetsBoundsForEveryQueueBeforeItsFirstMessage(Vertx vertx, VertxTestContext test,
                                                                           @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Before", 1)
                .compose(created -> broker.send("Before", 0, Map.of(), "first write since the open"))
                .compose(sent -> broker.createTopic("Created", 8))
                .compose(created -> broker.poll(() -> bounds(vertx, storeDir),
                    bounds -> bounds.getOrDefault("Created", Map.of()).keySet().equals(EIGHT_QUEUES))))
            .onComplete(test.succeedingThenComplete());
    }

    /** A send that auto-creates its topic (TBW102, 4 queues asked): the other queues get bounds too. */
    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aTopicAutoCreatedByASendGetsBoundsForEveryQueue(Vertx vertx, VertxTestContext test,
                                                        @TempDir Path storeDir) {
        AdminTestBroker.with(vertx, storeDir, broker -> broker.createTopic("Before", 1)
                .compose(created -> broker.send("Before", 0, Map.of(), "first write since the open"))
                .compose(sent -> broker.send("Auto", 2, Map.of(), "auto-creates its topic"))
                .compose(sent -> broker.poll(() -> bounds(vertx, storeDir),
                    bounds -> bounds.getOrDefault("Auto", Map.of()).keySet().equals(Set.of(0, 1, 2, 3)))))
            .onComplete(test.succeedingThenComplete());
    }

    /** The bounds in the store's reserved offsets file, read off the event loop. */
    private static Future<Map<String, Map<Integer, Long>>> bounds(Vertx vertx, Path storeDir) {
        return vertx.executeBlocking(() -> ReservedOffsetsFile.read(storeDir.resolve(ReservedOffsetsFile.FILE_NAME))
            .bounds());
    }

    /** config/topics.json in RocketMQ's form with the topics, 8 queues each (how bench-scale.sh writes them). */
    private static void writeTopics(Path storeDir, String... topics) throws IOException {
        StringBuilder table = new StringBuilder();
        for (String topic : topics) {
            table.append(table.isEmpty() ? "" : ",").append('"').append(topic).append("\":{\"topicName\":\"")
                .append(topic).append("\",\"readQueueNums\":8,\"writeQueueNums\":8,\"perm\":6,")
                .append("\"topicFilterType\":\"SINGLE_TAG\",\"topicSysFlag\":0,\"order\":false,\"attributes\":{}}");
        }
        Path file = storeDir.resolve("config/topics.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"topicConfigTable\":{" + table + "},\"dataVersion\":{\"counter\":1,"
            + "\"stateVersion\":0,\"timestamp\":1}}");
    }
}
