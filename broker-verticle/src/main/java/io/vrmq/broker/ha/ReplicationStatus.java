package io.vrmq.broker.ha;

import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.store.StoreAccess;

import java.util.LinkedHashMap;
import java.util.Map;

/** The part of the admin API's replication view that both roles show. */
final class ReplicationStatus {
    private ReplicationStatus() {
    }

    static Map<String, Object> common(BrokerRole role, StoreAccess store) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("role", role.brokerRole());
        status.put("brokerId", role.brokerId());
        status.put("commitLogMaxOffset", store.store().getCommitLogMaxOffset());
        return status;
    }
}
