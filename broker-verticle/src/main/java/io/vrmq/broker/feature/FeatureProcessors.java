package io.vrmq.broker.feature;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.filter.CheckClientConfigProcessor;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.broker.recall.RecallMessageProcessor;
import io.vrmq.broker.reply.ReplyMessageProcessor;
import io.vrmq.remoting.transport.ProcessorTable;

/** Registers the request codes of the message features (filter check, request-reply, recall). Wiring only. */
public final class FeatureProcessors {
    private FeatureProcessors() {
    }

    public static void registerInto(ProcessorTable.Builder table, BrokerContext broker) {
        new CheckClientConfigProcessor(broker).registerInto(table);
        new ReplyMessageProcessor(broker, new TopicResolver(broker), broker.features().reply()).registerInto(table);
        RecallMessageProcessor.of(broker, broker.features().recall()).registerInto(table);
    }
}
