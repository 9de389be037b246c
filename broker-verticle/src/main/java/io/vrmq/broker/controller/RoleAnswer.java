package io.vrmq.broker.controller;

import io.vrmq.remoting.body.controller.ElectMasterResponseBody;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.Set;

/**
 * What the controller says about a broker set's master, from any of the answers that carry it (REGISTER_BROKER,
 * ELECT_MASTER, GET_REPLICA_INFO) or from a NOTIFY_BROKER_ROLE_CHANGED notice.
 *
 * @param masterBrokerId    the master's controller id, or null when the set has no master
 * @param masterAddress     the master's broker address, or null
 * @param masterEpoch       the master's epoch (0 when the answer carries none)
 * @param syncStateSetEpoch the SyncStateSet's epoch (-1 when the answer carries none)
 * @param syncStateSet      the controller ids in sync with the master
 */
record RoleAnswer(Long masterBrokerId, String masterAddress, int masterEpoch, int syncStateSetEpoch,
                  Set<Long> syncStateSet) {

    boolean hasMaster() {
        return masterBrokerId != null && masterAddress != null && !masterAddress.isBlank();
    }

    /** Header masterBrokerId/masterAddress/masterEpoch(/syncStateSetEpoch), body a SyncStateSet. */
    static RoleAnswer fromReplicaInfo(RemotingCommand response, RemotingJson json) {
        SyncStateSetBody body = response.hasBody() ? json.decode(response.body(), SyncStateSetBody.class)
            : new SyncStateSetBody(Set.of(), -1);
        HeaderFields header = response.header();
        int syncStateSetEpoch = header.optionalInt("syncStateSetEpoch", body.syncStateSetEpoch());
        return new RoleAnswer(optionalLong(header, "masterBrokerId"), header.optionalString("masterAddress"),
            header.optionalInt("masterEpoch", 0), syncStateSetEpoch, body.syncStateSet());
    }

    /** ELECT_MASTER: the header as REGISTER_BROKER's, the body an ElectMasterResponseBody. */
    static RoleAnswer fromElection(RemotingCommand response, RemotingJson json) {
        Set<Long> syncStateSet = response.hasBody()
            ? json.decode(response.body(), ElectMasterResponseBody.class).syncStateSet() : Set.of();
        HeaderFields header = response.header();
        return new RoleAnswer(optionalLong(header, "masterBrokerId"), header.optionalString("masterAddress"),
            header.optionalInt("masterEpoch", 0), header.optionalInt("syncStateSetEpoch", -1), syncStateSet);
    }

    private static Long optionalLong(HeaderFields header, String name) {
        String value = header.optionalString(name);
        return value == null || value.isBlank() ? null : Long.valueOf(value.trim());
    }
}
