package io.vrmq.broker.ha;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.auth.server.AuthService;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.pop.RequestModeTable;
import io.vrmq.broker.schedule.DelayOffsetFile;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A slave's copy of its master's metadata, as RocketMQ's SlaveSynchronize: topics (21), subscription groups (201),
 * consumer offsets (43), delay-level progress (45), when given a table, the groups' POP request modes (402), and
 * when given the auth service, users and ACLs (3005/3010),
 * every slaveSyncMetadataInterval. Topics and groups are
 * replaced when the master's data version differs; offsets are merged, the master's winning. A round that fails
 * (master down) changes nothing and is logged once per outage.
 */
public final class SlaveSynchronizer {
    private static final Logger log = LoggerFactory.getLogger(SlaveSynchronizer.class);
    private static final long REQUEST_TIMEOUT_MS = 3_000;

    private final BrokerContext broker;
    private final RemotingClient client;
    private final DelayOffsetFile delayOffsetFile;
    private final Runnable onTopicsReplaced;
    private RequestModeTable requestModes;
    private AuthService auth;
    private boolean isFailing;

    /** @param onTopicsReplaced runs after the topic table changed (registers the new topics with the NameServers) */
    public SlaveSynchronizer(BrokerContext broker, RemotingClient client, DelayOffsetFile delayOffsetFile,
                             Runnable onTopicsReplaced) {
        this.broker = broker;
        this.client = client;
        this.delayOffsetFile = delayOffsetFile;
        this.onTopicsReplaced = onTopicsReplaced;
    }

    /** Also copies the master's POP request modes into {@code modes} (RocketMQ's syncMessageRequestMode). */
    public SlaveSynchronizer withRequestModes(RequestModeTable modes) {
        this.requestModes = modes;
        return this;
    }

    /** Also copies the master's users and ACLs (ACL 2.0) into {@code service}. */
    public SlaveSynchronizer withAuth(AuthService service) {
        this.auth = service;
        return this;
    }

    /** One round against the master at {@code masterAddr}; completes when every part ended, failed or not. */
    public Future<Void> syncFrom(String masterAddr) {
        Future<Void> round = Future.all(List.of(syncTopics(masterAddr), syncGroups(masterAddr),
            syncOffsets(masterAddr), syncDelayOffsets(masterAddr), syncRequestModes(masterAddr),
            auth == null ? Future.succeededFuture() : auth.copyFrom(client, masterAddr))).mapEmpty();
        return round.onSuccess(done -> {
            if (isFailing) {
                log.info("metadata sync from master {} works again", masterAddr);
            }
            isFailing = false;
        }).recover(error -> {
            if (!isFailing) {
                log.warn("metadata sync from master {} failed: {}", masterAddr, error.getMessage());
            }
            isFailing = true;
            return Future.succeededFuture();
        });
    }

    private Future<Void> syncTopics(String masterAddr) {
        return call(masterAddr, RequestCode.GET_ALL_TOPIC_CONFIG).map(response -> {
            TopicConfigSerializeWrapper master = broker.json().decode(response.body(),
                TopicConfigSerializeWrapper.class);
            DataVersion version = master.dataVersion() != null ? master.dataVersion() : broker.topics().dataVersion();
            if (broker.topics().replaceAll(master.topicConfigTable(), version)) {
                log.info("{} topic configs copied from master {}", master.topicConfigTable().size(), masterAddr);
                onTopicsReplaced.run();
            }
            return null;
        });
    }

    private Future<Void> syncGroups(String masterAddr) {
        return call(masterAddr, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG).map(response -> {
            JsonNode root = broker.json().decode(response.body(), JsonNode.class);
            Map<String, SubscriptionGroupConfig> groups = new HashMap<>();
            root.path("subscriptionGroupTable").fields().forEachRemaining(entry -> groups.put(entry.getKey(),
                broker.json().mapper().convertValue(entry.getValue(), SubscriptionGroupConfig.class)));
            DataVersion version = root.hasNonNull("dataVersion")
                ? broker.json().mapper().convertValue(root.get("dataVersion"), DataVersion.class)
                : broker.groups().dataVersion();
            if (broker.groups().replaceAll(groups, version)) {
                log.info("{} subscription groups copied from master {}", groups.size(), masterAddr);
            }
            return null;
        });
    }

    private Future<Void> syncOffsets(String masterAddr) {
        return call(masterAddr, RequestCode.GET_ALL_CONSUMER_OFFSET).compose(response -> {
            Map<String, Map<Integer, Long>> offsets = new HashMap<>();
            broker.json().decode(response.body(), JsonNode.class).path("offsetTable").fields()
                .forEachRemaining(entry -> offsets.put(entry.getKey(), levelOrQueueTable(entry.getValue())));
            broker.offsets().putAll(offsets);
            return broker.offsets().persistIfDirty();
        });
    }

    private Future<Void> syncDelayOffsets(String masterAddr) {
        return call(masterAddr, RequestCode.GET_ALL_DELAY_OFFSET).compose(response -> {
            JsonNode table = broker.json().decode(response.body(), JsonNode.class).path("offsetTable");
            return delayOffsetFile.write(levelOrQueueTable(table));
        });
    }

    private Future<Void> syncRequestModes(String masterAddr) {
        if (requestModes == null) {
            return Future.succeededFuture();
        }
        return call(masterAddr, RequestCode.GET_ALL_MESSAGE_REQUEST_MODE).compose(response -> {
            JsonNode modes = broker.json().decode(response.body(), JsonNode.class).path("messageRequestModeMap");
            return requestModes.replaceAll(modes) ? requestModes.persist() : Future.succeededFuture();
        });
    }

    /** {"0":5,"1":7} (keys may come unquoted from RocketMQ) as a sorted map. */
    private static Map<Integer, Long> levelOrQueueTable(JsonNode table) {
        Map<Integer, Long> values = new TreeMap<>();
        table.fields().forEachRemaining(entry -> values.put(Integer.parseInt(entry.getKey()),
            entry.getValue().asLong()));
        return values;
    }

    private Future<RemotingCommand> call(String masterAddr, int code) {
        return client.invoke(masterAddr, RemotingCommand.request(code), REQUEST_TIMEOUT_MS).map(response -> {
            if (response.code() != ResponseCode.SUCCESS || !response.hasBody()) {
                throw new IllegalStateException("request " + code + " answered " + response.code() + " "
                    + response.remark());
            }
            return response;
        });
    }
}
