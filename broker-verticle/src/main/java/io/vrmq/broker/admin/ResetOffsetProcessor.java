package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * INVOKE_BROKER_TO_RESET_OFFSET (222): decodes the ResetOffsetRequestHeader, lets {@link OffsetReset} move and commit
 * the offsets and notify the group's members, and answers with the ResetOffsetBody. Refusals (slave, unknown topic or
 * group, offset out of range) come back as RocketMQ's codes and remarks through the dispatcher.
 */
public final class ResetOffsetProcessor {
    private final BrokerContext broker;
    private final OffsetReset offsetReset;

    public ResetOffsetProcessor(BrokerContext broker) {
        this.broker = broker;
        this.offsetReset = new OffsetReset(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, this::reset);
    }

    private Future<RemotingCommand> reset(RemotingConnection connection, RemotingCommand request) {
        return offsetReset.reset(decode(request.header()), connection.remoteAddress())
            .map(offsetTable -> RemotingCommand.success(request, QueueKeyedJson.body(broker.json(), Map.of(),
                offsetTable)));
    }

    /** ResetOffsetRequestHeader: queueId -1 = every queue; offset is used only with a queueId. */
    static OffsetReset.Request decode(HeaderFields header) {
        String offset = header.optionalString("offset");
        return new OffsetReset.Request(header.requiredString("topic"), header.requiredString("group"),
            header.requiredLong("timestamp"), header.optionalBoolean("isForce", false),
            header.optionalInt("queueId", -1),
            offset == null || offset.isEmpty() ? null : header.optionalLong("offset", -1));
    }
}
