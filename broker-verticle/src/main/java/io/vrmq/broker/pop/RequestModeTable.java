package io.vrmq.broker.pop;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.json.RemotingJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * RocketMQ's MessageRequestModeManager: per topic and group, whether the group consumes by PULL or by POP (set by
 * SET_MESSAGE_REQUEST_MODE, e.g. {@code mqadmin setConsumeMode}) and, for POP, popShareQueueNum. Persisted to
 * {@code config/messageRequestMode.json} in RocketMQ's form {@code {"messageRequestModeMap":{topic:{group:{...}}}}}
 * on every change. Thread-safe.
 */
public final class RequestModeTable {
    private static final Logger log = LoggerFactory.getLogger(RequestModeTable.class);

    private final Map<String, Map<String, RequestMode>> modes = new ConcurrentHashMap<>();
    private final JsonFile file;
    private final RemotingJson json;

    /** One group's mode for one topic (RocketMQ's SetMessageRequestModeRequestBody). */
    public record RequestMode(String topic, String consumerGroup, String mode, int popShareQueueNum) {
        @JsonIgnore
        public boolean isPop() {
            return "POP".equals(mode);
        }
    }

    public RequestModeTable(JsonFile file, RemotingJson json) {
        this.file = file;
        this.json = json;
    }

    public Future<Void> load() {
        return file.read(bytes -> {
            if (bytes != null && bytes.length() > 0) {
                replaceAll(json.decode(bytes, JsonNode.class).path("messageRequestModeMap"));
            }
            log.info("{} topics with consume modes loaded from {}", modes.size(), file.path());
            return null;
        });
    }

    /** The group's mode for the topic, or null when none was set. */
    public RequestMode get(String topic, String group) {
        Map<String, RequestMode> byGroup = modes.get(topic);
        return byGroup == null ? null : byGroup.get(group);
    }

    public Future<Void> set(RequestMode mode) {
        modes.computeIfAbsent(mode.topic(), t -> new ConcurrentHashMap<>()).put(mode.consumerGroup(), mode);
        return persist();
    }

    /** RocketMQ's MessageRequestModeSerializeWrapper: every mode, as GET_ALL_MESSAGE_REQUEST_MODE answers. */
    public Map<String, Object> wrapper() {
        Map<String, Map<String, RequestMode>> copy = new TreeMap<>();
        modes.forEach((topic, byGroup) -> copy.put(topic, new TreeMap<>(byGroup)));
        return Map.of("messageRequestModeMap", copy);
    }

    /** A slave takes its master's modes ({@code messageRequestModeMap} node); true when anything changed. */
    public boolean replaceAll(JsonNode modeMap) {
        Map<String, Map<String, RequestMode>> loaded = new ConcurrentHashMap<>();
        modeMap.fields().forEachRemaining(topic -> {
            Map<String, RequestMode> byGroup = new ConcurrentHashMap<>();
            topic.getValue().fields().forEachRemaining(group -> byGroup.put(group.getKey(), new RequestMode(
                topic.getKey(), group.getKey(), group.getValue().path("mode").asText("PULL"),
                group.getValue().path("popShareQueueNum").asInt(0))));
            loaded.put(topic.getKey(), byGroup);
        });
        if (loaded.equals(modes)) {
            return false;
        }
        modes.clear();
        modes.putAll(loaded);
        return true;
    }

    public Future<Void> persist() {
        return file.write(() -> json.encode(wrapper()));
    }
}
