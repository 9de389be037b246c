package io.vrmq.remoting.body.controller;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** A broker set as the controller describes it after an election: cluster, name and address per controller id. */
public record BrokerMemberGroup(String cluster, String brokerName, Map<Long, String> brokerAddrs) {
    public BrokerMemberGroup {
        brokerAddrs = brokerAddrs == null ? Collections.emptySortedMap()
            : Collections.unmodifiableSortedMap(new TreeMap<>(brokerAddrs));
    }
}
