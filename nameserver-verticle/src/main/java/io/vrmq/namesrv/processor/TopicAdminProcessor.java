package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * Admin changes to routes: DELETE_TOPIC_IN_NAMESRV (216), REGISTER_TOPIC_IN_NAMESRV (217),
 * WIPE_WRITE_PERM_OF_BROKER (205) and ADD_WRITE_PERM_OF_BROKER (327). Runs on the event loop.
 */
public final class TopicAdminProcessor {
    private final RouteTables routes;
    private final RemotingJson json;

    public TopicAdminProcessor(RouteTables routes, RemotingJson json) {
        this.routes = routes;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.DELETE_TOPIC_IN_NAMESRV, this::deleteTopic);
        table.register(RequestCode.REGISTER_TOPIC_IN_NAMESRV, this::registerTopic);
        table.register(RequestCode.WIPE_WRITE_PERM_OF_BROKER, (connection, request) -> changeWritePerm(request,
            false, "wipeTopicCount"));
        table.register(RequestCode.ADD_WRITE_PERM_OF_BROKER, (connection, request) -> changeWritePerm(request,
            true, "addTopicCount"));
    }

    private Future<RemotingCommand> deleteTopic(RemotingConnection connection, RemotingCommand request) {
        routes.deleteTopic(request.header().requiredString("topic"), request.header().optionalString("clusterName"));
        return Replies.ok(request);
    }

    private Future<RemotingCommand> registerTopic(RemotingConnection connection, RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        if (request.hasBody()) {
            routes.registerTopic(topic, json.decode(request.body(), TopicRouteData.class).queueDatas());
        }
        return Replies.ok(request);
    }

    private Future<RemotingCommand> changeWritePerm(RemotingCommand request, boolean writable, String countField) {
        int changed = routes.changeWritePerm(request.header().requiredString("brokerName"), writable);
        return Replies.ok(request, Map.of(countField, Integer.toString(changed)), null);
    }
}
