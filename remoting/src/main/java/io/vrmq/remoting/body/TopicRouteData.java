package io.vrmq.remoting.body;

import java.util.List;
import java.util.Map;

/** The body of GET_ROUTEINFO_BY_TOPIC (105): which brokers serve a topic and with how many queues. */
public record TopicRouteData(String orderTopicConf, List<QueueData> queueDatas, List<BrokerData> brokerDatas,
                             Map<String, List<String>> filterServerTable) {
    public TopicRouteData {
        queueDatas = queueDatas == null ? List.of() : queueDatas;
        brokerDatas = brokerDatas == null ? List.of() : brokerDatas;
        filterServerTable = filterServerTable == null ? Map.of() : filterServerTable;
    }
}
