package io.vrmq.store.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All ConsumeQueues of a store, by topic and queue id, under {@code consumequeue/<topic>/<queueId>/}.
 *
 * <p>Threads: the dispatcher creates queues; any thread looks them up (concurrent maps). Topic deletion may run
 * on any thread but only for a topic that no longer receives appends.
 */
public final class ConsumeQueueTable {
    private static final Logger log = LoggerFactory.getLogger(ConsumeQueueTable.class);

    private final Path root;
    private final int fileBytes;
    private final Map<String, Map<Integer, ConsumeQueue>> queues = new ConcurrentHashMap<>();

    private ConsumeQueueTable(Path root, int fileBytes) {
        this.root = root;
        this.fileBytes = fileBytes;
    }

    /**
     * Opens every queue found under {@code root}. A queue whose files are missing or cut is deleted and reported
     * through the returned table's {@link #rebuildNeeded()}: the dispatcher rebuilds it from the CommitLog.
     */
    public static ConsumeQueueTable open(Path root, int fileBytes) {
        ConsumeQueueTable table = new ConsumeQueueTable(root, fileBytes);
        table.loadAll();
        return table;
    }

    private boolean rebuildNeeded;

    /** True when a damaged queue was dropped at open: dispatch must replay the whole CommitLog. */
    public boolean rebuildNeeded() {
        return rebuildNeeded;
    }

    public ConsumeQueue find(String topic, int queueId) {
        Map<Integer, ConsumeQueue> byId = queues.get(topic);
        return byId == null ? null : byId.get(queueId);
    }

    /** The queue, created empty when new. Dispatcher only. */
    public ConsumeQueue findOrCreate(String topic, int queueId) {
        ConsumeQueue existing = find(topic, queueId);
        if (existing != null) {
            return existing;
        }
        return queues.computeIfAbsent(topic, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(queueId, id -> ConsumeQueue.open(directory(topic, id), topic, id, fileBytes));
    }

    public Collection<ConsumeQueue> all() {
        List<ConsumeQueue> out = new ArrayList<>();
        queues.values().forEach(byId -> out.addAll(byId.values()));
        return out;
    }

    /** Queue ids of {@code topic} that have a ConsumeQueue. */
    public Collection<Integer> queueIds(String topic) {
        Map<Integer, ConsumeQueue> byId = queues.get(topic);
        return byId == null ? List.of() : List.copyOf(byId.keySet());
    }

    /** Removes the topic's queues and deletes their files; returns how many queues went. */
    public int deleteTopic(String topic) {
        Map<Integer, ConsumeQueue> removed = queues.remove(topic);
        if (removed == null) {
            return 0;
        }
        removed.values().forEach(ConsumeQueue::deleteFiles);
        deleteDirectory(root.resolve(topic));
        log.info("deleted consume queues of topic {} ({} queues)", topic, removed.size());
        return removed.size();
    }

    private void loadAll() {
        try {
            Files.createDirectories(root);
            try (Stream<Path> topics = Files.list(root)) {
                for (Path topicDir : topics.filter(Files::isDirectory).toList()) {
                    loadTopic(topicDir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load consume queues under " + root, e);
        }
    }

    private void loadTopic(Path topicDir) throws IOException {
        String topic = topicDir.getFileName().toString();
        try (Stream<Path> ids = Files.list(topicDir)) {
            for (Path queueDir : ids.filter(Files::isDirectory).toList()) {
                int queueId;
                try {
                    queueId = Integer.parseInt(queueDir.getFileName().toString());
                } catch (NumberFormatException notAQueue) {
                    continue;
                }
                ConsumeQueue queue = ConsumeQueue.open(queueDir, topic, queueId, fileBytes);
                if (queue.isDamagedOnOpen()) {
                    log.warn("consume queue {}-{} has missing or cut files; rebuilding it from the commit log",
                            topic, queueId);
                    queue.deleteFiles();
                    rebuildNeeded = true;
                    continue;
                }
                queues.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).put(queueId, queue);
            }
        }
    }

    private Path directory(String topic, int queueId) {
        return root.resolve(topic).resolve(Integer.toString(queueId));
    }

    private static void deleteDirectory(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
