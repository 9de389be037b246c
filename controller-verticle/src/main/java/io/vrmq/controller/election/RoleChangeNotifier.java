package io.vrmq.controller.election;

import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.decision.Decision;
import io.vrmq.controller.metrics.ControllerMetrics;
import io.vrmq.remoting.body.controller.ElectMasterResponseBody;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * After a successful election, tells every alive member of the broker set about its new master:
 * NOTIFY_BROKER_ROLE_CHANGED (1008), oneway, to the broker's main address (header masterAddress, masterEpoch,
 * syncStateSetEpoch, masterBrokerId; body the new SyncStateSet), as RocketMQ's ControllerManager does. A broker that
 * cannot be reached learns the same from its next CONTROLLER_GET_REPLICA_INFO poll. Call on the controller's event
 * loop; sends are asynchronous.
 */
public final class RoleChangeNotifier {
    private static final Logger log = LoggerFactory.getLogger(RoleChangeNotifier.class);

    private final RemotingClient client;
    private final BrokerLiveness liveness;
    private final RemotingJson json;
    private final ControllerMetrics metrics;

    public RoleChangeNotifier(RemotingClient client, BrokerLiveness liveness, RemotingJson json,
                              ControllerMetrics metrics) {
        this.client = client;
        this.liveness = liveness;
        this.json = json;
        this.metrics = metrics;
    }

    /** {@code elected}: a SUCCESS decision of CONTROLLER_ELECT_MASTER, whose body names the set's members. */
    public void notifyMembers(Decision elected) {
        if (!(elected.body() instanceof ElectMasterResponseBody body) || body.brokerMemberGroup() == null) {
            return;
        }
        Map<String, String> header = elected.header();
        String masterBrokerId = header.get("masterBrokerId");
        if (masterBrokerId == null) {
            log.warn("role change not sent: the election named no master: {}", header);
            return;
        }
        int syncStateSetEpoch = Integer.parseInt(header.get("syncStateSetEpoch"));
        Map<String, String> noticeHeader = new HashMap<>();
        putIfPresent(noticeHeader, "masterAddress", header.get("masterAddress"));
        noticeHeader.put("masterEpoch", header.get("masterEpoch"));
        noticeHeader.put("syncStateSetEpoch", header.get("syncStateSetEpoch"));
        noticeHeader.put("masterBrokerId", masterBrokerId);
        String clusterName = body.brokerMemberGroup().cluster();
        String brokerName = body.brokerMemberGroup().brokerName();
        body.brokerMemberGroup().brokerAddrs().forEach((brokerId, address) -> {
            if (address != null && liveness.isAlive(clusterName, brokerName, brokerId)) {
                RemotingCommand notice = RemotingCommand.request(RequestCode.NOTIFY_BROKER_ROLE_CHANGED,
                    noticeHeader, json.encode(new SyncStateSetBody(body.syncStateSet(), syncStateSetEpoch)));
                send(brokerName, brokerId, address, notice);
            }
        });
    }

    private void send(String brokerName, long brokerId, String address, RemotingCommand notice) {
        client.invokeOneway(address, notice)
            .onSuccess(sent -> {
                metrics.roleChangeNoticeSent(brokerName);
                log.info("role change of {} sent to broker {} at {}: {}", brokerName, brokerId, address,
                    notice.extFields());
            })
            .onFailure(error -> log.warn("role change of {} not delivered to broker {} at {}: {}", brokerName,
                brokerId, address, error.toString()));
    }

    private static void putIfPresent(Map<String, String> header, String name, String value) {
        if (value != null) {
            header.put(name, value);
        }
    }
}
