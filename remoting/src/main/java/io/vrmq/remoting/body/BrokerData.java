package io.vrmq.remoting.body;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/** A broker group: its cluster, name and address per broker id (0 = master). */
public record BrokerData(String cluster, String brokerName, Map<Long, String> brokerAddrs,
                         boolean enableActingMaster,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String zoneName) {
    public static final long MASTER_ID = 0L;

    public BrokerData {
        brokerAddrs = brokerAddrs == null ? Map.of() : brokerAddrs;
    }
}
