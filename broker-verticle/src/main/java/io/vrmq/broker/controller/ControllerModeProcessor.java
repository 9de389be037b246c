package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The broker's controller-mode requests: NOTIFY_BROKER_ROLE_CHANGED (1008, oneway from the controller, handed to the
 * {@link ControllerAgent}), GET_BROKER_EPOCH_CACHE (1007, {@code mqadmin getBrokerEpoch}) and GET_BROKER_HA_STATUS
 * (907, {@code mqadmin haStatus}), with RocketMQ's bodies. Without controller mode 1007 is answered as RocketMQ does,
 * SYSTEM_ERROR. Runs on the event loop.
 */
public final class ControllerModeProcessor {
    private final BrokerContext broker;
    private final ControllerAgent agent;
    private final ControllerReplication replication;

    /** @param agent and {@code replication} null without controller mode */
    public ControllerModeProcessor(BrokerContext broker, ControllerAgent agent, ControllerReplication replication) {
        this.broker = broker;
        this.agent = agent;
        this.replication = replication;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.NOTIFY_BROKER_ROLE_CHANGED, this::roleChanged);
        table.register(RequestCode.GET_BROKER_EPOCH_CACHE, this::epochCache);
        table.register(RequestCode.GET_BROKER_HA_STATUS, this::haStatus);
    }

    private Future<RemotingCommand> roleChanged(RemotingConnection connection, RemotingCommand request) {
        if (agent == null) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "this broker is not in controller mode");
        }
        HeaderFields header = request.header();
        SyncStateSetBody body = request.hasBody() ? broker.json().decode(request.body(), SyncStateSetBody.class)
            : new SyncStateSetBody(Set.of(), -1);
        String masterBrokerId = header.optionalString("masterBrokerId");
        agent.onRoleChangeNotice(new RoleAnswer(masterBrokerId == null ? null : Long.valueOf(masterBrokerId),
            header.optionalString("masterAddress"), header.optionalInt("masterEpoch", 0),
            header.optionalInt("syncStateSetEpoch", body.syncStateSetEpoch()), body.syncStateSet()));
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> epochCache(RemotingConnection connection, RemotingCommand request) {
        if (replication == null) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "this request only for controllerMode ");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("clusterName", broker.config().brokerClusterName());
        body.put("brokerName", broker.config().brokerName());
        body.put("brokerId", broker.role().current().brokerId());
        body.put("epochList", replication.epochEntries().stream().map(entry -> Map.of("epoch", entry.epoch(),
            "startOffset", entry.startOffset(), "endOffset", entry.endOffset())).toList());
        body.put("maxOffset", broker.store().store().getCommitLogMaxOffset());
        return Future.succeededFuture(RemotingCommand.success(request, broker.json().encode(body)));
    }

    private Future<RemotingCommand> haStatus(RemotingConnection connection, RemotingCommand request) {
        if (replication == null) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                "Can not get HARuntimeInfo: this broker is not in controller mode");
        }
        return Future.succeededFuture(RemotingCommand.success(request,
            broker.json().encode(replication.haRuntimeInfo())));
    }
}
