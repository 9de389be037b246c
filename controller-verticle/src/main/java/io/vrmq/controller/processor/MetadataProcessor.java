package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vrmq.controller.ControllerConfig;
import io.vrmq.controller.raft.RaftNode;
import io.vrmq.controller.raft.RaftStatus;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.HashMap;
import java.util.Map;

/**
 * CONTROLLER_GET_METADATA_INFO (1005), answered by any node: the group, the leader's id and controller address (the
 * address brokers and mqadmin then send state requests to), whether this node is the leader, and the peers as
 * {@code n0:host:port;n1:host:port;}. Runs on the controller's event loop.
 */
public final class MetadataProcessor {
    private final ControllerConfig config;
    private final RaftNode raft;

    public MetadataProcessor(ControllerConfig config, RaftNode raft) {
        this.config = config;
        this.raft = raft;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CONTROLLER_GET_METADATA_INFO, this::metadata);
    }

    private Future<RemotingCommand> metadata(RemotingConnection connection, RemotingCommand request) {
        RaftStatus status = raft.status();
        Map<String, String> header = new HashMap<>();
        header.put("group", config.group());
        if (status.leaderId() != null) {
            header.put("controllerLeaderId", status.leaderId());
            String leaderAddress = config.controllerAddressOf(status.leaderId());
            if (leaderAddress != null) {
                header.put("controllerLeaderAddress", leaderAddress);
            }
        }
        header.put("isLeader", Boolean.toString(status.isLeader()));
        header.put("peers", config.peersText());
        return Future.succeededFuture(RemotingCommand.success(request, header, null));
    }
}
