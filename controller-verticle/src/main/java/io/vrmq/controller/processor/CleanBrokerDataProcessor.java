package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vrmq.controller.leader.DecisionSequencer;
import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.CleanBrokerDataDecision;
import io.vrmq.controller.decision.CleanBrokerDataRequest;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

/** CLEAN_BROKER_DATA (1011) from mqadmin cleanBrokerMetadata; leader only. Runs on the controller's event loop. */
public final class CleanBrokerDataProcessor {
    private final DecisionSequencer sequencer;
    private final BrokerLiveness liveness;
    private final RemotingJson json;

    public CleanBrokerDataProcessor(DecisionSequencer sequencer, BrokerLiveness liveness, RemotingJson json) {
        this.sequencer = sequencer;
        this.liveness = liveness;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CLEAN_BROKER_DATA, this::clean);
    }

    private Future<RemotingCommand> clean(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        CleanBrokerDataRequest clean = new CleanBrokerDataRequest(header.optionalString("clusterName"),
            header.requiredString("brokerName"), header.optionalString("brokerControllerIdsToClean"),
            header.optionalBoolean("isCleanLivingBroker", false));
        return Replies.of(request, sequencer.run(state -> CleanBrokerDataDecision.decide(state, liveness, clean)),
            json);
    }
}
