package io.vrmq.broker.processor;

import io.vertx.core.Future;
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
 */
public final class ClientManageProcessor {
    private final BrokerContext broker;
    private final TopicResolver topics;

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
        HeartbeatData heartbeat = broker.json().decode(request.body(), HeartbeatData.class);
        ClientChannel channel = broker.clients().channel(heartbeat.clientID(), connection, request);
        boolean isSubscriptionChanged = false;
        for (ConsumerData consumer : heartbeat.consumerDataSet()) {
            if (broker.groups().findOrCreate(consumer.groupName()) != null) {
                topics.retryTopic(consumer.groupName());
            }
            isSubscriptionChanged |= broker.clients().registerConsumer(channel, consumer);
        }
        for (ProducerData producer : heartbeat.producerDataSet()) {
            broker.clients().registerProducer(channel, producer.groupName());
        }
        return Future.succeededFuture(RemotingCommand.success(request, Map.of("IS_SUPPORT_HEART_BEAT_V2", "false",
            "IS_SUB_CHANGE", Boolean.toString(isSubscriptionChanged)), null));
    }

    private Future<RemotingCommand> unregister(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String producerGroup = header.optionalString("producerGroup");
        String consumerGroup = header.optionalString("consumerGroup");
        if (producerGroup != null) {
            broker.clients().unregisterProducer(producerGroup, connection);
        }
        if (consumerGroup != null) {
            broker.clients().unregisterConsumer(consumerGroup, connection);
        }
        return Future.succeededFuture(RemotingCommand.success(request, null));
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
