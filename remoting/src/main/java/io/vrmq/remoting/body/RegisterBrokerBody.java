package io.vrmq.remoting.body;

import java.util.List;

/** The body of REGISTER_BROKER (103) and QUERY_DATA_VERSION's topic part: the broker's topics and filter servers. */
public record RegisterBrokerBody(TopicConfigSerializeWrapper topicConfigSerializeWrapper,
                                 List<String> filterServerList) {
    public RegisterBrokerBody {
        filterServerList = filterServerList == null ? List.of() : filterServerList;
    }
}
