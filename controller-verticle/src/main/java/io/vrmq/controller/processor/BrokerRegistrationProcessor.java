package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vrmq.controller.leader.DecisionSequencer;
import io.vrmq.controller.decision.ApplyBrokerIdRequest;
import io.vrmq.controller.decision.BrokerIdDecisions;
import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.RegisterBrokerRequest;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

/**
 * How a broker gets its controller id and announces itself: CONTROLLER_GET_NEXT_BROKER_ID (1012),
 * CONTROLLER_APPLY_BROKER_ID (1013) and CONTROLLER_REGISTER_BROKER (1003), answered by the leader only. Runs on the
 * controller's event loop.
 */
public final class BrokerRegistrationProcessor {
    private final DecisionSequencer sequencer;
    private final BrokerLiveness liveness;
    private final RemotingJson json;

    public BrokerRegistrationProcessor(DecisionSequencer sequencer, BrokerLiveness liveness, RemotingJson json) {
        this.sequencer = sequencer;
        this.liveness = liveness;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CONTROLLER_GET_NEXT_BROKER_ID, this::nextBrokerId);
        table.register(RequestCode.CONTROLLER_APPLY_BROKER_ID, this::applyBrokerId);
        table.register(RequestCode.CONTROLLER_REGISTER_BROKER, this::registerBroker);
    }

    private Future<RemotingCommand> nextBrokerId(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String clusterName = header.optionalString("clusterName");
        String brokerName = header.requiredString("brokerName");
        return Replies.of(request, sequencer.run(state -> BrokerIdDecisions.nextBrokerId(state, clusterName,
            brokerName)), json);
    }

    private Future<RemotingCommand> applyBrokerId(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        ApplyBrokerIdRequest apply = new ApplyBrokerIdRequest(header.optionalString("clusterName"),
            header.requiredString("brokerName"), header.requiredLong("appliedBrokerId"),
            header.requiredString("registerCheckCode"));
        return Replies.of(request, sequencer.run(state -> BrokerIdDecisions.applyBrokerId(state, apply)), json);
    }

    private Future<RemotingCommand> registerBroker(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        RegisterBrokerRequest register = new RegisterBrokerRequest(header.optionalString("clusterName"),
            header.requiredString("brokerName"), header.requiredLong("brokerId"),
            header.requiredString("brokerAddress"));
        return Replies.of(request, sequencer.run(state -> BrokerIdDecisions.registerBroker(state, liveness,
            register)), json);
    }
}
