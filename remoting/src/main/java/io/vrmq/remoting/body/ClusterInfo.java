package io.vrmq.remoting.body;

import java.util.Map;
import java.util.Set;

/** The body of GET_BROKER_CLUSTER_INFO (106): every broker group and every cluster's broker names. */
public record ClusterInfo(Map<String, BrokerData> brokerAddrTable, Map<String, Set<String>> clusterAddrTable) {
}
