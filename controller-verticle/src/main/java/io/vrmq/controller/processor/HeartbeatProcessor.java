package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vrmq.controller.heartbeat.BrokerIdentity;
import io.vrmq.controller.heartbeat.BrokerLiveTable;
import io.vrmq.controller.heartbeat.HeartbeatReport;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Consumer;

/**
 * BROKER_HEARTBEAT (904), which brokers send oneway every second to every controller node: answered by any node, it
 * feeds this node's {@link BrokerLiveTable}. The first heartbeat over a connection hooks its close: a closed
 * connection marks its brokers inactive at once. A heartbeat without brokerId is refused with
 * CONTROLLER_INVALID_REQUEST, as RocketMQ does. Runs on the controller's event loop.
 */
public final class HeartbeatProcessor {
    private final BrokerLiveTable liveTable;
    private final long defaultHeartbeatTimeoutMs;
    private final Consumer<BrokerIdentity> onInactive;
    private final Set<RemotingConnection> watched = Collections.newSetFromMap(new IdentityHashMap<>());

    /** @param onInactive told each broker whose connection closed */
    public HeartbeatProcessor(BrokerLiveTable liveTable, long defaultHeartbeatTimeoutMs,
                              Consumer<BrokerIdentity> onInactive) {
        this.liveTable = liveTable;
        this.defaultHeartbeatTimeoutMs = defaultHeartbeatTimeoutMs;
        this.onInactive = onInactive;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.BROKER_HEARTBEAT, this::heartbeat);
    }

    private Future<RemotingCommand> heartbeat(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String clusterName = header.requiredString("clusterName");
        String brokerAddr = header.requiredString("brokerAddr");
        String brokerName = header.requiredString("brokerName");
        String brokerId = header.optionalString("brokerId");
        if (brokerId == null || brokerId.isEmpty()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.CONTROLLER_INVALID_REQUEST,
                "Heart beat with empty brokerId"));
        }
        HeartbeatReport report = new HeartbeatReport(
            new BrokerIdentity(clusterName, brokerName, header.requiredLong("brokerId")), brokerAddr,
            header.optionalInt("epoch", -1), header.optionalLong("maxOffset", -1),
            header.optionalLong("confirmOffset", -1),
            header.optionalLong("heartbeatTimeoutMills", defaultHeartbeatTimeoutMs),
            header.optionalInt("electionPriority", Integer.MAX_VALUE));
        liveTable.onHeartbeat(report, connection);
        if (watched.add(connection)) {
            connection.onClose(closed -> {
                watched.remove(closed);
                liveTable.onConnectionClosed(closed).forEach(onInactive);
            });
        }
        return Future.succeededFuture(RemotingCommand.response(request, ResponseCode.SUCCESS, "Heart beat success",
            null, null));
    }
}
