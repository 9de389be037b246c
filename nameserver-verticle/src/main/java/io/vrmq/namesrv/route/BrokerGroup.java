package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.BrokerData;

import java.util.Map;
import java.util.TreeMap;

/**
 * The mutable form of a broker group (one broker name: a master and its slaves) inside {@link RouteTables}.
 * Not thread-safe: only touched under the tables' lock; {@link #snapshot()} is what leaves it.
 */
final class BrokerGroup {
    final String clusterName;
    final String brokerName;
    final TreeMap<Long, String> addrsById = new TreeMap<>();
    boolean enableActingMaster;
    String zoneName;

    BrokerGroup(String clusterName, String brokerName) {
        this.clusterName = clusterName;
        this.brokerName = brokerName;
    }

    BrokerData snapshot() {
        return new BrokerData(clusterName, brokerName, new TreeMap<>(addrsById), enableActingMaster, zoneName);
    }

    /**
     * The route view when acting master is supported: a group whose master is gone shows its lowest-id slave as
     * id 0, so that clients keep a readable (and, with acting master, writable) broker for the group.
     */
    BrokerData snapshotWithActingMaster() {
        TreeMap<Long, String> addrs = new TreeMap<>(addrsById);
        if (enableActingMaster && !addrs.isEmpty() && !addrs.containsKey(BrokerData.MASTER_ID)) {
            Map.Entry<Long, String> lowest = addrs.pollFirstEntry();
            addrs.put(BrokerData.MASTER_ID, lowest.getValue());
        }
        return new BrokerData(clusterName, brokerName, addrs, enableActingMaster, zoneName);
    }

    boolean removeAddress(String brokerAddr) {
        return addrsById.values().removeIf(brokerAddr::equals);
    }
}
