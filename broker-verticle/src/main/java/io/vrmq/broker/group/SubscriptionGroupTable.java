package io.vrmq.broker.group;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.json.RemotingJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Consumer group settings, persisted to {@code config/subscriptionGroup.json} in RocketMQ's form
 * ({@code {"dataVersion":..,"subscriptionGroupTable":{..}}}). Groups are created on first use when
 * autoCreateSubscriptionGroup is on. Thread-safe.
 */
public final class SubscriptionGroupTable {
    private static final Logger log = LoggerFactory.getLogger(SubscriptionGroupTable.class);

    private final Map<String, SubscriptionGroupConfig> groups = new ConcurrentHashMap<>();
    private final JsonFile file;
    private final RemotingJson json;
    private final boolean autoCreate;
    private final int defaultRetryMaxTimes;
    private volatile DataVersion dataVersion = DataVersion.initial(System.currentTimeMillis());

    public SubscriptionGroupTable(JsonFile file, RemotingJson json, boolean autoCreate, int defaultRetryMaxTimes) {
        this.file = file;
        this.json = json;
        this.autoCreate = autoCreate;
        this.defaultRetryMaxTimes = defaultRetryMaxTimes;
    }

    public Future<Void> load() {
        return file.read(bytes -> {
            if (bytes != null && bytes.length() > 0) {
                JsonNode root = json.decode(bytes, JsonNode.class);
                root.path("subscriptionGroupTable").fields().forEachRemaining(entry -> groups.put(entry.getKey(),
                    json.mapper().convertValue(entry.getValue(), SubscriptionGroupConfig.class)));
            }
            log.info("{} subscription groups loaded from {}", groups.size(), file.path());
            return null;
        });
    }

    /** The group's config, created with defaults when unknown and auto-creation is on; else null. */
    public SubscriptionGroupConfig findOrCreate(String group) {
        SubscriptionGroupConfig config = groups.get(group);
        if (config != null || !autoCreate) {
            return config;
        }
        SubscriptionGroupConfig created = SubscriptionGroupConfig.defaults(group, defaultRetryMaxTimes);
        SubscriptionGroupConfig raced = groups.putIfAbsent(group, created);
        if (raced != null) {
            return raced;
        }
        log.info("subscription group created: {}", group);
        persist();
        return created;
    }

    public SubscriptionGroupConfig get(String group) {
        return groups.get(group);
    }

    public Map<String, SubscriptionGroupConfig> all() {
        return new TreeMap<>(groups);
    }

    public Future<Void> put(SubscriptionGroupConfig config) {
        groups.put(config.groupName(), config);
        log.info("subscription group updated: {}", config);
        return persist();
    }

    public Future<Void> delete(String group) {
        return groups.remove(group) == null ? Future.succeededFuture() : persist();
    }

    /** A slave takes its master's whole table and version (metadata sync); false when nothing changed. */
    public boolean replaceAll(Map<String, SubscriptionGroupConfig> masterGroups, DataVersion masterVersion) {
        synchronized (this) {
            if (masterVersion.equals(dataVersion) && masterGroups.equals(groups)) {
                return false;
            }
            groups.keySet().retainAll(masterGroups.keySet());
            groups.putAll(masterGroups);
            dataVersion = masterVersion;
        }
        write();
        return true;
    }

    public DataVersion dataVersion() {
        return dataVersion;
    }

    private Future<Void> persist() {
        dataVersion = dataVersion.next(System.currentTimeMillis());
        return write();
    }

    private Future<Void> write() {
        return file.write(() -> json.encode(Map.of("dataVersion", dataVersion, "subscriptionGroupTable", all())));
    }
}
