package io.vrmq.remoting.body.controller;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * The body of a CONTROLLER_ELECT_MASTER (1002) answer: the broker set's members (absent in a
 * CONTROLLER_MASTER_STILL_EXIST answer) and the new SyncStateSet.
 * {@code {"brokerMemberGroup":{"brokerAddrs":{1:"127.0.0.1:47911"},"brokerName":"b1","cluster":"c1"},
 * "syncStateSet":[1]}}.
 */
public record ElectMasterResponseBody(@JsonInclude(JsonInclude.Include.NON_NULL) BrokerMemberGroup brokerMemberGroup,
                                      Set<Long> syncStateSet) {
    public ElectMasterResponseBody {
        syncStateSet = syncStateSet == null ? Collections.emptySortedSet()
            : Collections.unmodifiableSortedSet(new TreeSet<>(syncStateSet));
    }
}
