package io.vrmq.load;

import java.util.List;

import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.header.GetTopicConfigRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;

/**
 * What a controller group (ours or Apache's, RocketMQ 5 controller mode) says about one broker set, asked the way
 * mqadmin getSyncStateSet asks: CONTROLLER_GET_METADATA_INFO (1005) to the controllers in turn until one names the
 * leader, then CONTROLLER_GET_SYNC_STATE_DATA (1006) to the leader. The leader is remembered until a request to it
 * fails. Every failure (a node down, no leader yet, an election in progress) reads as "nothing known now": callers
 * poll. Also asks a broker whether it holds a topic (GET_TOPIC_CONFIG, 351). One thread at a time (the tool's main
 * thread); the remoting client is the caller's.
 */
final class ControllerView {

    private static final long REQUEST_TIMEOUT_MS = 1_000;

    private final NettyRemotingClient client;
    private final List<String> controllers;
    private final String brokerName;
    private String leader;

    /** @param controllers the controllers' addresses, "host:port;host:port;..." as brokers' controllerAddr */
    ControllerView(NettyRemotingClient client, String controllers, String brokerName) {
        this.client = client;
        this.controllers = List.of(controllers.split(";"));
        this.brokerName = brokerName;
    }

    /** The controller leader's address, or null if no live controller names one now. */
    String leader() {
        if (leader != null) {
            return leader;
        }
        for (String controller : controllers) {
            try {
                RemotingCommand response = client.invokeSync(controller,
                    RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_GET_METADATA_INFO, null),
                    REQUEST_TIMEOUT_MS);
                if (response.getCode() == ResponseCode.SUCCESS) {
                    GetMetaDataResponseHeader header = (GetMetaDataResponseHeader) response
                        .decodeCommandCustomHeader(GetMetaDataResponseHeader.class);
                    if (header.getControllerLeaderAddress() != null && !header.getControllerLeaderAddress().isEmpty()) {
                        leader = header.getControllerLeaderAddress();
                        return leader;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (Exception nodeDownOrNoLeader) {
                // ask the next one
            }
        }
        return null;
    }

    /** The leader's view of the broker set (master, epochs, in-sync and other replicas), or null. */
    BrokerReplicasInfo.ReplicasInfo replicas() {
        String address = leader();
        if (address == null) {
            return null;
        }
        try {
            RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_GET_SYNC_STATE_DATA,
                null);
            request.setBody(RemotingSerializable.encode(List.of(brokerName)));
            RemotingCommand response = client.invokeSync(address, request, REQUEST_TIMEOUT_MS);
            if (response.getCode() != ResponseCode.SUCCESS || response.getBody() == null) {
                leader = null;     // 2007 NOT_LEADER after a leader change: ask again next time
                return null;
            }
            return RemotingSerializable.decode(response.getBody(), BrokerReplicasInfo.class).getReplicasInfoTable()
                .get(brokerName);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            leader = null;
            return null;
        }
    }

    /** How many replicas are in the SyncStateSet and alive (0 when nothing is known). */
    static int aliveInSync(BrokerReplicasInfo.ReplicasInfo replicas) {
        return replicas == null || replicas.getInSyncReplicas() == null ? 0
            : (int) replicas.getInSyncReplicas().stream().filter(replica -> Boolean.TRUE.equals(replica.getAlive()))
            .count();
    }

    /** "master=addr epoch=n inSync=k/n" for progress lines. */
    static String describe(BrokerReplicasInfo.ReplicasInfo replicas) {
        if (replicas == null) {
            return "the controller leader knows no such broker set yet (or no leader answers)";
        }
        int all = (replicas.getInSyncReplicas() == null ? 0 : replicas.getInSyncReplicas().size())
            + (replicas.getNotInSyncReplicas() == null ? 0 : replicas.getNotInSyncReplicas().size());
        return "master=" + replicas.getMasterAddress() + " epoch=" + replicas.getMasterEpoch() + " inSync(alive)="
            + aliveInSync(replicas) + "/" + all;
    }

    /** Whether the broker at {@code brokerAddr} answers GET_TOPIC_CONFIG for {@code topic} with SUCCESS. */
    boolean brokerHasTopic(String brokerAddr, String topic) {
        GetTopicConfigRequestHeader header = new GetTopicConfigRequestHeader();
        header.setTopic(topic);
        try {
            return client.invokeSync(brokerAddr, RemotingCommand.createRequestCommand(RequestCode.GET_TOPIC_CONFIG,
                header), REQUEST_TIMEOUT_MS).getCode() == ResponseCode.SUCCESS;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception notYet) {
            return false;
        }
    }
}
