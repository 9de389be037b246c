package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.CopyOptions;
import io.vertx.core.json.JsonObject;
import io.vrmq.client.MessageQueue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * BROADCASTING offsets, kept in {@code <offsetStoreDir>/<clientId>/<group>/offsets.json} (RocketMQ's
 * LocalFileOffsetStore): {@code {"offsetTable":{"topic@broker@queueId":offset}}}, written whole to a temporary file
 * and moved over the old one, so a crash leaves either the old or the new table. File I/O through Vert.x's async file
 * system. Confined to the consumer's context.
 */
public final class LocalFileOffsetStore implements OffsetStore {
    private final Vertx vertx;
    private final Path file;
    private final Map<String, MessageQueue> queuesByKey = new HashMap<>();
    private final Map<MessageQueue, Long> offsets = new HashMap<>();
    private final Map<String, Long> persisted = new HashMap<>();
    /** Writes run one after the other: two at once would race on the temporary file. */
    private Future<Void> lastWrite = Future.succeededFuture();

    public LocalFileOffsetStore(Vertx vertx, Path offsetStoreDir, String clientId, String group) {
        this.vertx = vertx;
        this.file = offsetStoreDir.resolve(clientId.replace(':', '_')).resolve(group).resolve("offsets.json");
    }

    @Override
    public Future<Void> load() {
        String path = file.toString();
        return vertx.fileSystem().exists(path).compose(exists -> {
            if (!exists) {
                return Future.succeededFuture();
            }
            return vertx.fileSystem().readFile(path).map(bytes -> {
                JsonObject table = new JsonObject(bytes).getJsonObject("offsetTable", new JsonObject());
                table.forEach(entry -> persisted.put(entry.getKey(), ((Number) entry.getValue()).longValue()));
                return null;
            });
        });
    }

    @Override
    public Future<Long> readFromStore(MessageQueue queue) {
        Long offset = persisted.get(queue.key());
        if (offset != null) {
            offsets.put(queue, offset);
        }
        return Future.succeededFuture(offset == null ? -1L : offset);
    }

    @Override
    public long readFromMemory(MessageQueue queue) {
        return offsets.getOrDefault(queue, -1L);
    }

    @Override
    public void update(MessageQueue queue, long offset, boolean isIncreaseOnly) {
        if (offset < 0) {
            return;
        }
        queuesByKey.put(queue.key(), queue);
        offsets.merge(queue, offset, (old, next) -> isIncreaseOnly ? Math.max(old, next) : next);
    }

    @Override
    public Future<Void> persistAll(boolean isAcked) {
        offsets.forEach((queue, offset) -> persisted.put(queue.key(), offset));
        JsonObject table = new JsonObject();
        persisted.forEach(table::put);
        Buffer content = new JsonObject().put("offsetTable", table).toBuffer();
        lastWrite = lastWrite.transform(previous -> write(content));
        return lastWrite;
    }

    private Future<Void> write(Buffer content) {
        String temporary = file + ".tmp";
        return vertx.fileSystem().mkdirs(file.getParent().toString())
            .compose(made -> vertx.fileSystem().writeFile(temporary, content))
            .compose(written -> vertx.fileSystem().move(temporary, file.toString(),
                new CopyOptions().setReplaceExisting(true).setAtomicMove(true)));
    }

    @Override
    public Future<Void> persist(MessageQueue queue) {
        return persistAll(true);
    }

    @Override
    public void remove(MessageQueue queue) {
        offsets.remove(queue);
    }

    public Path file() {
        return file;
    }
}
