package io.vrmq.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RemotingServer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays one broker of a broker set against controllers, with requests as a RocketMQ 5.5.0 broker sends them, over
 * its own {@link RemotingClient} (so closing it closes only this broker's connections). It also listens like a
 * broker's main port and records the NOTIFY_BROKER_ROLE_CHANGED (1008) notices a controller sends it.
 */
final class TestBroker {
    static final RemotingJson JSON = new RemotingJson();
    static final String CLUSTER = "test-cluster";

    private final String brokerName;
    private final RemotingClient client;
    private final RemotingServer endpoint;
    private final List<RemotingCommand> notices = new CopyOnWriteArrayList<>();
    private int port;

    private TestBroker(Vertx vertx, String brokerName) {
        this.brokerName = brokerName;
        this.client = new RemotingClient(vertx, RemotingLimits.defaults());
        ProcessorTable notifications = ProcessorTable.builder()
            .register(RequestCode.NOTIFY_BROKER_ROLE_CHANGED, (connection, request) -> {
                notices.add(request);
                return Future.succeededFuture();
            }).build();
        this.endpoint = new RemotingServer(vertx, new NetServerOptions(), RemotingLimits.defaults(), 100,
            new AtomicInteger(), notifications, RemotingObserver.NONE);
    }

    /** Starts the broker's listener (for role-change notices) on a free loopback port. */
    static Future<TestBroker> start(Vertx vertx, String brokerName) {
        TestBroker broker = new TestBroker(vertx, brokerName);
        return broker.endpoint.listen(TestControllers.HOST, 0).map(port -> {
            broker.port = port;
            return broker;
        });
    }

    /** "127.0.0.1:port" of this broker's listener: its brokerAddr. */
    String address() {
        return TestControllers.HOST + ":" + port;
    }

    List<RemotingCommand> notices() {
        return notices;
    }

    Future<RemotingCommand> nextBrokerId(String controller) {
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_GET_NEXT_BROKER_ID,
            header("clusterName", CLUSTER, "brokerName", brokerName), null));
    }

    Future<RemotingCommand> applyBrokerId(String controller, long brokerId, String registerCheckCode) {
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_APPLY_BROKER_ID,
            header("clusterName", CLUSTER, "brokerName", brokerName, "appliedBrokerId", Long.toString(brokerId),
                "registerCheckCode", registerCheckCode), null));
    }

    /** The check code a broker builds: its address and the time it first applied. */
    String checkCode(long millis) {
        return address() + ";" + millis;
    }

    Future<RemotingCommand> register(String controller, long brokerId) {
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_REGISTER_BROKER,
            header("clusterName", CLUSTER, "brokerName", brokerName, "brokerId", Long.toString(brokerId),
                "brokerAddress", address(), "invokeTime", Long.toString(System.currentTimeMillis())), null));
    }

    /** A oneway heartbeat, as the broker sends them every second. */
    Future<Void> heartbeat(String controller, long brokerId, int epoch, long maxOffset) {
        return client.invokeOneway(controller, heartbeatRequest(brokerId, epoch, maxOffset));
    }

    /** The same heartbeat, two-way (to know it was processed). */
    Future<RemotingCommand> heartbeatAndWait(String controller, long brokerId, int epoch, long maxOffset) {
        return client.invoke(controller, heartbeatRequest(brokerId, epoch, maxOffset));
    }

    Future<RemotingCommand> electMaster(String controller, long brokerId) {
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER,
            header("clusterName", CLUSTER, "brokerName", brokerName, "brokerId", Long.toString(brokerId),
                "designateElect", "false", "invokeTime", Long.toString(System.currentTimeMillis())), null));
    }

    Future<RemotingCommand> alterSyncStateSet(String controller, long masterBrokerId, int masterEpoch,
                                              Set<Long> syncStateSet, int syncStateSetEpoch) {
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET,
            header("brokerName", brokerName, "masterBrokerId", Long.toString(masterBrokerId), "masterEpoch",
                Integer.toString(masterEpoch), "invokeTime", Long.toString(System.currentTimeMillis())),
            JSON.encode(new SyncStateSetBody(syncStateSet, syncStateSetEpoch))));
    }

    Future<RemotingCommand> replicaInfo(String controller) {
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_GET_REPLICA_INFO,
            header("brokerName", brokerName), null));
    }

    /** Closes this broker's connections to the controllers, as a dying broker process does. */
    Future<Void> closeConnections() {
        return client.close();
    }

    Future<Void> stop() {
        return client.close().eventually(() -> endpoint.shutdown(0));
    }

    private RemotingCommand heartbeatRequest(long brokerId, int epoch, long maxOffset) {
        return RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, header("clusterName", CLUSTER, "brokerAddr",
            address(), "brokerName", brokerName, "brokerId", Long.toString(brokerId), "epoch",
            Integer.toString(epoch), "maxOffset", Long.toString(maxOffset), "confirmOffset",
            Long.toString(maxOffset), "heartbeatTimeoutMills", "10000", "electionPriority", "2147483647"), null);
    }

    static Map<String, String> header(String... namesAndValues) {
        Map<String, String> header = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            header.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return header;
    }
}
