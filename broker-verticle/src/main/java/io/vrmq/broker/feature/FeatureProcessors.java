package io.vrmq.broker.feature;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.filter.CheckClientConfigProcessor;
import io.vrmq.remoting.transport.ProcessorTable;

/** Registers the request codes of the message features (filter check). Wiring only. */
public final class FeatureProcessors {
    private FeatureProcessors() {
    }

    public static void registerInto(ProcessorTable.Builder table, BrokerContext broker) {
        new CheckClientConfigProcessor(broker).registerInto(table);
    }
}
