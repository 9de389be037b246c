package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vrmq.controller.decision.ElectMasterRequest;
import io.vrmq.controller.election.MasterElector;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

/**
 * CONTROLLER_ELECT_MASTER (1002): a broker that sees no master asks to be elected (its own id), or an admin designates
 * one ({@code designateElect=true}). Header defaults as RocketMQ's ElectMasterRequestHeader: empty names, id -1, no
 * designation. Leader only. Runs on the controller's event loop.
 */
public final class ElectMasterProcessor {
    private final MasterElector elector;
    private final RemotingJson json;

    public ElectMasterProcessor(MasterElector elector, RemotingJson json) {
        this.elector = elector;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CONTROLLER_ELECT_MASTER, this::elect);
    }

    private Future<RemotingCommand> elect(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String clusterName = header.optionalString("clusterName");
        String brokerName = header.optionalString("brokerName");
        ElectMasterRequest elect = new ElectMasterRequest(clusterName == null ? "" : clusterName,
            brokerName == null ? "" : brokerName,
            header.optionalLong("brokerId", ElectMasterRequest.CONTROLLER_TRIGGER),
            header.optionalBoolean("designateElect", false));
        return Replies.of(request, elector.elect(elect), json);
    }
}
