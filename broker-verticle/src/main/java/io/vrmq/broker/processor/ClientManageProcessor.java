package io.vrmq.broker.processor;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.body.ProducerData;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * Clients announcing themselves: HEART_BEAT (34), UNREGISTER_CLIENT (35), GET_CONSUMER_LIST_BY_GROUP (38).
 * A consumer group's first heartbeat creates its subscription group and its retry topic (registered with the
 * NameServers at once, so the client's route look-up for it succeeds). Runs on the event loop.
 * <p>
 * A heartbeat carries every subscription of its client: with a thousand topics its JSON is hundreds of KiB, and the
 * official client sends one after each topic's rebalance, so decoding them in place would hold the held pulls'
 * answers on the same loop for seconds. A body over {@code heartbeatDecodeOnWorkerBytes} is decoded on a worker; the
 * registration is still applied here, on the event loop, and one connection's heartbeats and unregistrations are
 * applied in arrival order ({@link ConnectionTurns}). A small body is decoded in place, where the hop to a worker
 * would cost more than the decode.
 */
public final class ClientManageProcessor {
    private final BrokerContext broker;
    private final TopicResolver topics;
    private final ConnectionTurns turns = new ConnectionTurns();

    public ClientManageProcessor(BrokerContext broker, TopicResolver topics) {
        this.broker = broker;
        this.topics = topics;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.HEART_BEAT, this::heartbeat);
        table.register(RequestCode.UNREGISTER_CLIENT, this::unregister);
        table.register(RequestCode.GET_CONSUMER_LIST_BY_GROUP, this::consumerList);
    }

    private Future<RemotingCommand> heartbeat(RemotingConnection connection, RemotingCommand request) {
        Buffer body = request.body();
        Context context = Vertx.currentContext();
        boolean isLarge = body != null && body.length() > broker.config().heartbeatDecodeOnWorkerBytes()
            && context != null;
        if (!isLarge && !turns.isBusy(connection)) {
            return Future.succeededFuture(apply(connection, request, decode(body)));
        }
        Future<HeartbeatData> decoded;
        if (isLarge) {
            byte[] bytes = body.getBytes();   // the frame's buffer stays with the loop; the worker reads a copy
            decoded = context.executeBlocking(() -> broker.json().decode(bytes, HeartbeatData.class), false);
        } else {
            decoded = decodeNow(body);
        }
        return turns.after(connection, decoded, heartbeat -> apply(connection, request, heartbeat));
    }

    private HeartbeatData decode(Buffer body) {
        return broker.json().decode(body, HeartbeatData.class);
    }

    private Future<HeartbeatData> decodeNow(Buffer body) {
        try {
            return Future.succeededFuture(decode(body));
        } catch (RuntimeException e) {
            return Future.failedFuture(e);   // a malformed body fails its own request only, in its turn
        }
    }

    private RemotingCommand apply(RemotingConnection connection, RemotingCommand request, HeartbeatData heartbeat) {
        boolean isSubscriptionChanged = false;
        // A heartbeat decoded on a worker may outlive its connection: registering it then would leave a member
        // that no close event removes (the connection's close was handled already).
        if (!connection.isClosed()) {
            ClientChannel channel = broker.clients().channel(heartbeat.clientID(), connection, request);
            for (ConsumerData consumer : heartbeat.consumerDataSet()) {
                if (broker.groups().findOrCreate(consumer.groupName()) != null) {
                    topics.retryTopic(consumer.groupName());
                }
                isSubscriptionChanged |= broker.clients().registerConsumer(channel, consumer);
            }
            for (ProducerData producer : heartbeat.producerDataSet()) {
                broker.clients().registerProducer(channel, producer.groupName());
            }
        }
        return RemotingCommand.success(request, Map.of("IS_SUPPORT_HEART_BEAT_V2", "false",
            "IS_SUB_CHANGE", Boolean.toString(isSubscriptionChanged)), null);
    }

    private Future<RemotingCommand> unregister(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String producerGroup = header.optionalString("producerGroup");
        String consumerGroup = header.optionalString("consumerGroup");
        if (turns.isBusy(connection)) {   // after the heartbeats it follows, or they would register it again
            return turns.after(connection, Future.succeededFuture(),
                ignored -> unregisterNow(connection, request, producerGroup, consumerGroup));
        }
        return Future.succeededFuture(unregisterNow(connection, request, producerGroup, consumerGroup));
    }

    private RemotingCommand unregisterNow(RemotingConnection connection, RemotingCommand request,
                                          String producerGroup, String consumerGroup) {
        if (producerGroup != null) {
            broker.clients().unregisterProducer(producerGroup, connection);
        }
        if (consumerGroup != null) {
            broker.clients().unregisterConsumer(consumerGroup, connection);
        }
        return RemotingCommand.success(request, null);
    }

    private Future<RemotingCommand> consumerList(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().requiredString("consumerGroup");
        ConsumerGroupInfo info = broker.clients().consumerGroup(group);
        if (info == null || info.clientIds().isEmpty()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "no consumer for this group, " + group));
        }
        return Future.succeededFuture(RemotingCommand.success(request,
            broker.json().encode(Map.of("consumerIdList", info.clientIds()))));
    }
}
