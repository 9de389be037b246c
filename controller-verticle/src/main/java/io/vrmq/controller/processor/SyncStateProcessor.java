package io.vrmq.controller.processor;

import com.fasterxml.jackson.core.type.TypeReference;
import io.vertx.core.Future;
import io.vrmq.controller.leader.DecisionSequencer;
import io.vrmq.controller.decision.AlterSyncStateSetRequest;
import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.SyncStateDecisions;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.io.IOException;
import java.util.List;

/**
 * The SyncStateSet requests, answered by the leader only: CONTROLLER_ALTER_SYNC_STATE_SET (1001) from a master,
 * CONTROLLER_GET_REPLICA_INFO (1004) from every broker, CONTROLLER_GET_SYNC_STATE_DATA (1006) from mqadmin.
 * Runs on the controller's event loop.
 */
public final class SyncStateProcessor {
    private static final TypeReference<List<String>> BROKER_NAMES = new TypeReference<>() {
    };

    private final DecisionSequencer sequencer;
    private final BrokerLiveness liveness;
    private final RemotingJson json;

    public SyncStateProcessor(DecisionSequencer sequencer, BrokerLiveness liveness, RemotingJson json) {
        this.sequencer = sequencer;
        this.liveness = liveness;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET, this::alterSyncStateSet);
        table.register(RequestCode.CONTROLLER_GET_REPLICA_INFO, this::replicaInfo);
        table.register(RequestCode.CONTROLLER_GET_SYNC_STATE_DATA, this::syncStateData);
    }

    private Future<RemotingCommand> alterSyncStateSet(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String brokerName = header.requiredString("brokerName");
        String masterBrokerId = header.optionalString("masterBrokerId");
        int masterEpoch = header.requiredInt("masterEpoch");
        SyncStateSetBody proposed = json.decode(request.body(), SyncStateSetBody.class);
        AlterSyncStateSetRequest alter = new AlterSyncStateSetRequest(brokerName,
            masterBrokerId == null || masterBrokerId.isEmpty() ? null : header.requiredLong("masterBrokerId"),
            masterEpoch, proposed.syncStateSet(), proposed.syncStateSetEpoch());
        return Replies.of(request, sequencer.run(state -> SyncStateDecisions.alterSyncStateSet(state, liveness,
            alter)), json);
    }

    private Future<RemotingCommand> replicaInfo(RemotingConnection connection, RemotingCommand request) {
        String brokerName = request.header().requiredString("brokerName");
        return Replies.of(request, sequencer.run(state -> SyncStateDecisions.replicaInfo(state, brokerName)), json);
    }

    private Future<RemotingCommand> syncStateData(RemotingConnection connection, RemotingCommand request) {
        List<String> brokerNames = brokerNames(request);
        if (brokerNames.isEmpty()) {
            // RocketMQ answers a missing or empty list with a response whose code was never set.
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "not set any response code"));
        }
        return Replies.of(request, sequencer.run(state -> SyncStateDecisions.syncStateData(state, liveness,
            brokerNames)), json);
    }

    private List<String> brokerNames(RemotingCommand request) {
        if (!request.hasBody()) {
            return List.of();
        }
        try {
            List<String> names = json.mapper().readValue(request.body().getBytes(), BROKER_NAMES);
            return names == null ? List.of() : names;
        } catch (IOException e) {
            throw new RemotingCommandException("body is not a JSON array of broker names: " + e.getMessage());
        }
    }
}
