package io.vrmq.ceiling;

import io.vertx.core.Future;
import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import java.util.List;
import java.util.Map;

/**
 * The ceiling is its own NameServer: GET_ROUTEINFO_BY_TOPIC (105) routes every topic to itself (read and write,
 * the queue count it was created with or the default), and UPDATE_AND_CREATE_TOPIC (17) records that count, so the
 * client's createTopic through TBW102 works as against a broker. Event loop only.
 */
final class CeilingRoutes {
    static final String CLUSTER = "DefaultCluster";
    static final String BROKER_NAME = "ceiling";
    private static final int PERM_READ_WRITE = 6;

    private final RemotingJson json;
    private final MemoryQueues queues;
    private final CeilingVerticle.CeilingAddress self;

    CeilingRoutes(RemotingJson json, MemoryQueues queues, CeilingVerticle.CeilingAddress self) {
        this.json = json;
        this.queues = queues;
        this.self = self;
    }

    void register(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_ROUTEINFO_BY_TOPIC, this::route);
        table.register(RequestCode.UPDATE_AND_CREATE_TOPIC, this::createTopic);
    }

    private Future<RemotingCommand> route(RemotingConnection connection, RemotingCommand request) {
        String topic = request.header().requiredString("topic");
        int queueCount = queues.queueCount(topic);
        TopicRouteData route = new TopicRouteData(null,
            List.of(new QueueData(BROKER_NAME, queueCount, queueCount, PERM_READ_WRITE, 0)),
            List.of(new BrokerData(CLUSTER, BROKER_NAME, Map.of(BrokerData.MASTER_ID, self.text()), false, null)),
            Map.of());
        return Future.succeededFuture(RemotingCommand.success(request, json.encode(route)));
    }

    private Future<RemotingCommand> createTopic(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        queues.createTopic(header.requiredString("topic"), header.optionalInt("writeQueueNums",
            header.optionalInt("readQueueNums", 8)));
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }
}
