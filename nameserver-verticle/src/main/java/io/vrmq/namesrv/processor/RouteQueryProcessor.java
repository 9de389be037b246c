package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vrmq.namesrv.kv.KvConfigStore;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.body.TopicList;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What clients and admin tools ask the NameServer: routes (105), cluster info (106), topic lists (206, 224, 304,
 * 311-313) and a broker group's members (901). Reads only; runs on the event loop under the tables' read lock.
 */
public final class RouteQueryProcessor {
    private static final int UNIT_FLAG = 1;
    private static final int UNIT_SUB_FLAG = 1 << 1;
    private static final String FAQ_ROUTE = "See https://rocketmq.apache.org/docs/bestPractice/06FAQ for further"
        + " details.";

    private final RouteTables routes;
    private final KvConfigStore kvConfig;
    private final RemotingJson json;
    private final BooleanSupplier orderMessageEnable;

    public RouteQueryProcessor(RouteTables routes, KvConfigStore kvConfig, RemotingJson json,
                               BooleanSupplier orderMessageEnable) {
        this.routes = routes;
        this.kvConfig = kvConfig;
        this.json = json;
        this.orderMessageEnable = orderMessageEnable;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_ROUTEINFO_BY_TOPIC, this::route);
        table.register(RequestCode.GET_BROKER_CLUSTER_INFO,
            (connection, request) -> Replies.ok(request, json.encode(routes.clusterInfo())));
        table.register(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER,
            (connection, request) -> topics(request, routes.allTopics()));
        table.register(RequestCode.GET_TOPICS_BY_CLUSTER, (connection, request) ->
            topics(request, routes.topicsOfCluster(request.header().requiredString("cluster"))));
        table.register(RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS,
            (connection, request) -> topics(request, routes.systemTopics()));
        table.register(RequestCode.GET_UNIT_TOPIC_LIST, (connection, request) ->
            topics(request, routes.topicsWithSysFlag(flag -> (flag & UNIT_FLAG) != 0)));
        table.register(RequestCode.GET_HAS_UNIT_SUB_TOPIC_LIST, (connection, request) ->
            topics(request, routes.topicsWithSysFlag(flag -> (flag & UNIT_SUB_FLAG) != 0)));
        table.register(RequestCode.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, (connection, request) -> topics(request,
            routes.topicsWithSysFlag(flag -> (flag & UNIT_FLAG) == 0 && (flag & UNIT_SUB_FLAG) != 0)));
        table.register(RequestCode.GET_BROKER_MEMBER_GROUP, this::memberGroup);
    }

    private Future<RemotingCommand> route(RemotingConnection connection, RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        TopicRouteData route = routes.routeOf(topic);
        if (route == null) {
            return Replies.fail(request, ResponseCode.TOPIC_NOT_EXIST,
                "No topic route info in name server for the topic: " + topic + "\n" + FAQ_ROUTE);
        }
        if (orderMessageEnable.getAsBoolean()) {
            String orderConf = kvConfig.get(BrokerRegistrationProcessor.ORDER_TOPIC_CONFIG, topic);
            route = new TopicRouteData(orderConf, route.queueDatas(), route.brokerDatas(),
                route.filterServerTable());
        }
        return Replies.ok(request, json.encode(route));
    }

    private Future<RemotingCommand> topics(RemotingCommand request, TopicList topics) {
        return Replies.ok(request, json.encode(topics));
    }

    private Future<RemotingCommand> memberGroup(RemotingConnection connection, RemotingCommand request) {
        String clusterName = request.header().requiredString("clusterName");
        String brokerName = request.header().requiredString("brokerName");
        Map<Long, String> members = routes.groupMembers(clusterName, brokerName);
        Map<String, Object> group = Map.of("cluster", clusterName, "brokerName", brokerName, "brokerAddrs",
            members);
        return Replies.ok(request, json.encode(Map.of("brokerMemberGroup", group)));
    }
}
