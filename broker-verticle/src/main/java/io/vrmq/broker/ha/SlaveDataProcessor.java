package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What a slave copies from its master besides topics (21) and groups (201): GET_ALL_CONSUMER_OFFSET (43) and
 * GET_ALL_DELAY_OFFSET (45), in RocketMQ's bodies ({@code {"offsetTable":{"topic@group":{"0":5}},"dataVersion":..}}
 * and {@code {"offsetTable":{"1":12,..},"dataVersion":..}}), so Apache slaves can follow our master too.
 */
public final class SlaveDataProcessor {
    private final BrokerContext broker;
    private final Supplier<Future<Map<Integer, Long>>> delayOffsets;

    /** @param delayOffsets per delay level, the next schedule-queue offset to deliver */
    public SlaveDataProcessor(BrokerContext broker, Supplier<Future<Map<Integer, Long>>> delayOffsets) {
        this.broker = broker;
        this.delayOffsets = delayOffsets;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_ALL_CONSUMER_OFFSET, this::consumerOffsets);
        table.register(RequestCode.GET_ALL_DELAY_OFFSET, this::delayOffsets);
    }

    private Future<RemotingCommand> consumerOffsets(RemotingConnection connection, RemotingCommand request) {
        Map<String, Object> body = Map.of("offsetTable", broker.offsets().snapshot(),
            "dataVersion", DataVersion.initial(System.currentTimeMillis()));
        return Future.succeededFuture(RemotingCommand.success(request, null, broker.json().encode(body)));
    }

    private Future<RemotingCommand> delayOffsets(RemotingConnection connection, RemotingCommand request) {
        return delayOffsets.get().map(offsets -> {
            Map<String, Object> body = Map.of("offsetTable", new TreeMap<>(offsets),
                "dataVersion", DataVersion.initial(System.currentTimeMillis()));
            return RemotingCommand.success(request, null, broker.json().encode(body));
        });
    }
}
