package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is connected: GET_CONSUMER_CONNECTION_LIST (203, a ConsumerConnection body, or CONSUMER_NOT_ONLINE) and
 * GET_PRODUCER_CONNECTION_LIST (204, a ProducerConnection body, or SYSTEM_ERROR for an unknown group), as mqadmin
 * consumerConnection / producerConnection read them. Runs on the event loop: reads of the client registry only.
 */
public final class ClientConnectionProcessor {
    private final BrokerContext broker;

    public ClientConnectionProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_CONSUMER_CONNECTION_LIST, this::consumerConnections);
        table.register(RequestCode.GET_PRODUCER_CONNECTION_LIST, this::producerConnections);
    }

    private Future<RemotingCommand> consumerConnections(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().requiredString("consumerGroup");
        ConsumerGroupInfo info = broker.clients().consumerGroup(group);
        if (info == null || info.channels().isEmpty()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.CONSUMER_NOT_ONLINE,
                "the consumer group[" + group + "] not online"));
        }
        Map<String, Object> body = new HashMap<>();
        body.put("connectionSet", connections(info.channels()));
        body.put("subscriptionTable", info.subscriptions());
        body.put("consumeType", info.consumeType());
        body.put("messageModel", info.messageModel());
        body.put("consumeFromWhere", info.consumeFromWhere());
        return Future.succeededFuture(RemotingCommand.success(request, broker.json().encode(body)));
    }

    private Future<RemotingCommand> producerConnections(RemotingConnection connection, RemotingCommand request) {
        String group = request.header().requiredString("producerGroup");
        List<ClientChannel> producers = broker.clients().producers(group);
        if (producers.isEmpty()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "the producer group[" + group + "] not exist"));
        }
        return Future.succeededFuture(RemotingCommand.success(request,
            broker.json().encode(Map.of("connectionSet", connections(producers)))));
    }

    /** RocketMQ's Connection: clientId, clientAddr ("ip:port" of the peer), language (enum name), version. */
    private static List<Connection> connections(List<ClientChannel> channels) {
        return channels.stream()
            .map(channel -> new Connection(clientAddr(channel.connection()), channel.clientId(),
                channel.language().name(), channel.version()))
            .sorted(Comparator.comparing(Connection::clientId))
            .toList();
    }

    /** RocketMQ's RemotingHelper.parseChannelRemoteAddr form: "ip:port", no leading slash. */
    private static String clientAddr(RemotingConnection connection) {
        String address = connection.remoteAddress();
        return address.startsWith("/") ? address.substring(1) : address;
    }

    record Connection(String clientAddr, String clientId, String language, int version) {
    }
}
