package io.vrmq.namesrv.kv;

import io.vertx.core.Future;
import io.vertx.core.file.CopyOptions;
import io.vertx.core.file.FileSystem;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NameServer's KV config (namespace → key → value), kept in memory and persisted to {@code kvConfigPath} in
 * RocketMQ's file form {@code {"configTable":{"ns":{"k":"v"}}}} after every change.
 *
 * <p>Thread-safe maps. Writes to disk go through the Vert.x file system (never blocking an event loop) and are
 * chained one after another, each a complete snapshot written to a temp file and renamed over the old one, so a
 * crash leaves either the old or the new file, never half of one.
 */
public final class KvConfigStore {
    private static final Logger log = LoggerFactory.getLogger(KvConfigStore.class);

    private final FileSystem fileSystem;
    private final String path;
    private final Map<String, Map<String, String>> table = new ConcurrentHashMap<>();
    private Future<Void> lastWrite = Future.succeededFuture();

    public KvConfigStore(FileSystem fileSystem, String path) {
        this.fileSystem = fileSystem;
        this.path = path;
    }

    /** Reads the file if it exists; a missing file is an empty table. */
    public Future<Void> load() {
        return fileSystem.exists(path).compose(exists -> exists ? fileSystem.readFile(path)
                .map(bytes -> {
                    loadJson(bytes.length() == 0 ? new JsonObject() : bytes.toJsonObject());
                    return (Void) null;
                })
            : Future.<Void>succeededFuture())
            .onSuccess(ignored -> log.info("kv config loaded from {}: {} namespaces", path, table.size()));
    }

    private void loadJson(JsonObject json) {
        JsonObject configTable = json.getJsonObject("configTable", new JsonObject());
        for (String namespace : configTable.fieldNames()) {
            Map<String, String> entries = new ConcurrentHashMap<>();
            configTable.getJsonObject(namespace).forEach(entry -> entries.put(entry.getKey(),
                String.valueOf(entry.getValue())));
            table.put(namespace, entries);
        }
    }

    public Future<Void> put(String namespace, String key, String value) {
        String old = table.computeIfAbsent(namespace, ns -> new ConcurrentHashMap<>()).put(key, value);
        if (value.equals(old)) {
            return Future.succeededFuture();
        }
        log.info("kv config put: {} {} = {}", namespace, key, value);
        return persist();
    }

    public String get(String namespace, String key) {
        Map<String, String> entries = table.get(namespace);
        return entries == null ? null : entries.get(key);
    }

    /** A copy of one namespace, or null when it has no entries. */
    public Map<String, String> namespace(String namespace) {
        Map<String, String> entries = table.get(namespace);
        return entries == null || entries.isEmpty() ? null : new TreeMap<>(entries);
    }

    public Future<Void> delete(String namespace, String key) {
        Map<String, String> entries = table.get(namespace);
        if (entries == null || entries.remove(key) == null) {
            return Future.succeededFuture();
        }
        log.info("kv config deleted: {} {}", namespace, key);
        return persist();
    }

    private synchronized Future<Void> persist() {
        lastWrite = lastWrite.transform(ignored -> writeSnapshot(snapshot()));
        return lastWrite;
    }

    private JsonObject snapshot() {
        JsonObject configTable = new JsonObject();
        new TreeMap<>(table).forEach((namespace, entries) -> {
            if (!entries.isEmpty()) {
                configTable.put(namespace, new JsonObject(new TreeMap<String, Object>(entries)));
            }
        });
        return new JsonObject().put("configTable", configTable);
    }

    private Future<Void> writeSnapshot(JsonObject snapshot) {
        String temp = path + ".tmp";
        Path parent = Path.of(path).toAbsolutePath().getParent();
        return fileSystem.mkdirs(parent.toString())
            .compose(ignored -> fileSystem.writeFile(temp, snapshot.toBuffer()))
            .compose(ignored -> fileSystem.move(temp, path,
                new CopyOptions().setReplaceExisting(true).setAtomicMove(true)))
            .onFailure(error -> log.error("kv config could not be written to {}", path, error));
    }
}
