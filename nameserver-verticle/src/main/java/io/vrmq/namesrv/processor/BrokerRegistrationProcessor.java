package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vrmq.namesrv.admin.BrokerAdminAddresses;
import io.vrmq.namesrv.kv.KvConfigStore;
import io.vrmq.namesrv.route.BrokerRegistration;
import io.vrmq.namesrv.route.RegisterResult;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * Brokers talking to the NameServer: REGISTER_BROKER (103), UNREGISTER_BROKER (104), QUERY_DATA_VERSION (322),
 * BROKER_HEARTBEAT (904). A broker's connection closing drops its registration at once. Called on the event loop;
 * the route tables take their own lock. A registration's body (megabytes for a broker with 50,000 topics) is
 * checked, decoded and applied on an ordered worker, so the event loop never waits for it and registrations apply
 * in the order they arrived.
 */
public final class BrokerRegistrationProcessor {
    /** The KV namespace whose entries a master gets back on registration when orderMessageEnable is on. */
    static final String ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG";
    private static final String ZONE_NAME_FIELD = "__ZONE_NAME";

    private final Vertx vertx;
    private final RouteTables routes;
    private final KvConfigStore kvConfig;
    private final RemotingJson json;
    private final RegisterBodyDecoder bodyDecoder;
    private final BooleanSupplier orderMessageEnable;
    private final Set<RemotingConnection> watchedConnections = ConcurrentHashMap.newKeySet();
    private BrokerAdminAddresses adminAddresses = new BrokerAdminAddresses();

    public BrokerRegistrationProcessor(Vertx vertx, RouteTables routes, KvConfigStore kvConfig, RemotingJson json,
                                       BooleanSupplier orderMessageEnable) {
        this.vertx = vertx;
        this.routes = routes;
        this.kvConfig = kvConfig;
        this.json = json;
        this.bodyDecoder = new RegisterBodyDecoder(json);
        this.orderMessageEnable = orderMessageEnable;
    }

    /** Where the admin addresses vrmq brokers announce go (for the console); set before {@link #registerInto}. */
    public BrokerRegistrationProcessor withAdminAddresses(BrokerAdminAddresses addresses) {
        this.adminAddresses = addresses;
        return this;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.REGISTER_BROKER, this::register);
        table.register(RequestCode.UNREGISTER_BROKER, this::unregister);
        table.register(RequestCode.QUERY_DATA_VERSION, this::queryDataVersion);
        table.register(RequestCode.BROKER_HEARTBEAT, this::heartbeat);
    }

    private Future<RemotingCommand> register(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        BrokerRegistration incomplete = new BrokerRegistration(header.requiredString("clusterName"),
            header.requiredString("brokerAddr"), header.requiredString("brokerName"),
            header.requiredLong("brokerId"), header.optionalString("haServerAddr"),
            request.ext(ZONE_NAME_FIELD), header.optionalLong("heartbeatTimeoutMillis", 0),
            header.optionalBoolean("enableActingMaster", false), null, List.of(), connection);
        long bodyCrc32 = header.optionalLong("bodyCrc32", 0);
        boolean compressed = header.optionalBoolean("compressed", false);
        // Ordered: two registrations of one broker apply in the order they came, as they did on the event loop.
        return vertx.<RegisterResult>executeBlocking(() -> {
            if (bodyCrc32 != 0 && request.hasBody() && bodyCrc32 != crc32Of(request.body())) {
                return null;   // refused below, as RocketMQ does, without touching the tables
            }
            RegisterBrokerBody body = bodyDecoder.decode(request.body(), compressed);
            return routes.registerBroker(incomplete.with(body.topicConfigSerializeWrapper(),
                body.filterServerList()));
        }, true).compose(result -> result == null
            ? Replies.fail(request, ResponseCode.SYSTEM_ERROR, "crc32 not match")
            : registered(connection, request, incomplete, result));
    }

    /** Back on the event loop: watch the connection and answer. */
    private Future<RemotingCommand> registered(RemotingConnection connection, RemotingCommand request,
                                               BrokerRegistration registration, RegisterResult result) {
        adminAddresses.announced(registration.brokerAddr(), request.ext(BrokerAdminAddresses.EXT_FIELD));
        watch(connection);
        Map<String, String> responseHeader = new HashMap<>();
        putIfSet(responseHeader, "haServerAddr", result.haServerAddr());
        putIfSet(responseHeader, "masterAddr", result.masterAddr());
        Map<String, String> orderConfig = orderMessageEnable.getAsBoolean() ? kvConfig.namespace(ORDER_TOPIC_CONFIG)
            : null;
        Buffer responseBody = orderConfig == null ? null : json.encode(new KVTable(orderConfig));
        return Replies.ok(request, responseHeader, responseBody);
    }

    private Future<RemotingCommand> unregister(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        routes.unregisterBroker(header.requiredString("clusterName"), header.requiredString("brokerAddr"),
            header.requiredString("brokerName"));
        return Replies.ok(request);
    }

    private Future<RemotingCommand> queryDataVersion(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String clusterName = header.requiredString("clusterName");
        String brokerAddr = header.requiredString("brokerAddr");
        DataVersion version = json.decode(request.body(), DataVersion.class);
        boolean isChanged = routes.isTopicConfigChanged(clusterName, brokerAddr, version);
        if (!isChanged) {
            routes.touch(clusterName, brokerAddr);
        }
        DataVersion ours = routes.dataVersionOf(clusterName, brokerAddr);
        return Replies.ok(request, Map.of("changed", Boolean.toString(isChanged)),
            ours == null ? null : json.encode(ours));
    }

    private Future<RemotingCommand> heartbeat(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        routes.touch(header.requiredString("clusterName"), header.requiredString("brokerAddr"));
        return Replies.ok(request);
    }

    /** A closed broker connection drops the brokers registered over it (RocketMQ's onChannelDestroy). */
    private void watch(RemotingConnection connection) {
        if (watchedConnections.add(connection)) {
            connection.onClose(closed -> {
                watchedConnections.remove(closed);
                routes.connectionClosed(closed);
            });
        }
    }

    private static long crc32Of(Buffer body) {
        CRC32 crc = new CRC32();
        crc.update(body.getBytes());
        return crc.getValue() & 0x7FFFFFFFL;
    }

    private static void putIfSet(Map<String, String> header, String name, String value) {
        if (value != null) {
            header.put(name, value);
        }
    }
}
