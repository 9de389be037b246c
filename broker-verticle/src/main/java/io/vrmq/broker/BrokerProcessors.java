package io.vrmq.broker;

import io.vrmq.broker.longpoll.PullHoldService;
import io.vrmq.broker.processor.ClientManageProcessor;
import io.vrmq.broker.processor.DeliveryRouting;
import io.vrmq.broker.processor.OffsetProcessor;
import io.vrmq.broker.processor.PullMessageProcessor;
import io.vrmq.broker.processor.SendMessageProcessor;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.remoting.transport.ProcessorTable;

/** Builds the broker's processor table: which class answers which request code. Wiring only. */
final class BrokerProcessors {
    private BrokerProcessors() {
    }

    static ProcessorTable build(BrokerContext broker, PullHoldService holds) {
        ProcessorTable.Builder table = ProcessorTable.builder();
        TopicResolver topics = new TopicResolver(broker);
        DeliveryRouting routing = new DeliveryRouting(broker, topics);
        new SendMessageProcessor(broker, topics, routing).registerInto(table);
        new PullMessageProcessor(broker, holds).registerInto(table);
        new ClientManageProcessor(broker, topics).registerInto(table);
        new OffsetProcessor(broker).registerInto(table);
        return table.build();
    }
}
