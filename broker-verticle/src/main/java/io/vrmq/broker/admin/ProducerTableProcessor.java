package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * GET_ALL_PRODUCER_INFO (328), what mqadmin producer asks: every producer group with its live clients, as RocketMQ's
 * ProducerTableInfo ({@code {"data":{"<group>":[ProducerInfo, ...]}}}). Runs on the event loop: reads of the client
 * registry only.
 */
public final class ProducerTableProcessor {
    private final BrokerContext broker;

    public ProducerTableProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_ALL_PRODUCER_INFO, this::producerTable);
    }

    private Future<RemotingCommand> producerTable(RemotingConnection connection, RemotingCommand request) {
        Map<String, List<ProducerInfo>> data = new TreeMap<>();
        for (String group : broker.clients().producerGroupNames()) {
            List<ProducerInfo> producers = broker.clients().producers(group).stream()
                .map(ProducerTableProcessor::producerInfo)
                .sorted(Comparator.comparing(ProducerInfo::clientId))
                .toList();
            if (!producers.isEmpty()) {
                data.put(group, producers);
            }
        }
        return Future.succeededFuture(RemotingCommand.success(request, broker.json().encode(Map.of("data", data))));
    }

    /** remoteIP is Netty's {@code Channel.remoteAddress().toString()} in RocketMQ: "/ip:port". */
    private static ProducerInfo producerInfo(ClientChannel channel) {
        String address = channel.connection().remoteAddress();
        return new ProducerInfo(channel.clientId(), address.startsWith("/") ? address : "/" + address,
            channel.language().name(), channel.version(), channel.lastUpdateTimestamp());
    }

    /** RocketMQ's ProducerInfo: language is the LanguageCode's name. */
    record ProducerInfo(String clientId, String remoteIP, String language, int version, long lastUpdateTimestamp) {
    }
}
