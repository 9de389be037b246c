package io.vrmq.broker.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.json.RemotingJson;

import java.util.Map;
import java.util.TreeMap;

/**
 * {@code config/delayOffset.json}: per delay level, the next SCHEDULE_TOPIC_XXXX queue offset to deliver, in
 * RocketMQ's form {@code {"offsetTable":{"1":12,"2":0,..}}} (keys are levels, queue id = level - 1). Written
 * atomically by {@link JsonFile}. Thread-safe.
 */
public final class DelayOffsetFile {
    private final JsonFile file;
    private final RemotingJson json;

    DelayOffsetFile(JsonFile file, RemotingJson json) {
        this.file = file;
        this.json = json;
    }

    /** The broker's file under {@code storeRoot}. */
    public static DelayOffsetFile under(Vertx vertx, RemotingJson json, String storeRoot) {
        return new DelayOffsetFile(new JsonFile(vertx.fileSystem(), storeRoot + "/config/delayOffset.json"), json);
    }

    /** Level → offset as last written; empty on a first start. */
    public Future<Map<Integer, Long>> load() {
        return file.read(bytes -> {
            Map<Integer, Long> offsets = new TreeMap<>();
            if (bytes != null && bytes.length() > 0) {
                JsonNode table = json.decode(bytes, JsonNode.class).path("offsetTable");
                table.fields().forEachRemaining(entry -> offsets.put(Integer.parseInt(entry.getKey()),
                    entry.getValue().asLong()));
            }
            return offsets;
        });
    }

    public Future<Void> write(Map<Integer, Long> offsets) {
        Map<Integer, Long> snapshot = new TreeMap<>(offsets);
        return file.write(() -> json.encode(Map.of("offsetTable", snapshot)));
    }

    String path() {
        return file.path();
    }
}
