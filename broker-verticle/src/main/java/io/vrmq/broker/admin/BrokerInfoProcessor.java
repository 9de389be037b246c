package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * What mqadmin asks about the broker itself: GET_BROKER_CONFIG (26) and GET_BROKER_RUNTIME_INFO (28). The runtime
 * table is built on a reader thread (it reads the store and the file system).
 */
public final class BrokerInfoProcessor {
    private final BrokerContext broker;
    private final long bootTimestampMs;
    /** Our settings never change at run time (no UPDATE_BROKER_CONFIG), so their version is fixed at boot. */
    private final DataVersion configVersion;

    public BrokerInfoProcessor(BrokerContext broker, long bootTimestampMs) {
        this.broker = broker;
        this.bootTimestampMs = bootTimestampMs;
        this.configVersion = DataVersion.initial(bootTimestampMs);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_BROKER_CONFIG, this::brokerConfig);
        table.register(RequestCode.GET_BROKER_RUNTIME_INFO, this::runtimeInfo);
    }

    /** Body: properties text; header {@code version}: the config's DataVersion as JSON, as RocketMQ answers. */
    private Future<RemotingCommand> brokerConfig(RemotingConnection connection, RemotingCommand request) {
        String text = BrokerConfigText.of(broker.config(), broker.store().store().config(),
            broker.role().current());
        String version = broker.json().encode(configVersion).toString();
        return Future.succeededFuture(RemotingCommand.success(request, Map.of("version", version),
            Buffer.buffer(text)));
    }

    private Future<RemotingCommand> runtimeInfo(RemotingConnection connection, RemotingCommand request) {
        String masterAddr = broker.replication().masterAddr();
        return broker.store().read(() -> BrokerRuntimeInfo.collect(broker.config(), broker.role().current(), broker.topics(),
                broker.store().store(), broker.metrics(), bootTimestampMs, System.currentTimeMillis(), masterAddr))
            .map(table -> RemotingCommand.success(request, broker.json().encode(new KVTable(table))));
    }
}
