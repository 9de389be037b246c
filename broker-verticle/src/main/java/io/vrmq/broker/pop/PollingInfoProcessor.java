package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * POLLING_INFO (200055), RocketMQ's PollingInfoProcessor: how many pops are held under {@code topic@group@queueId}
 * ({@code pollingNum}), after the same checks as a peek. Runs on the broker's context.
 */
public final class PollingInfoProcessor {
    private final PopHolds holds;
    private final PopChecks checks;

    PollingInfoProcessor(BrokerContext broker, PopHolds holds) {
        this.holds = holds;
        this.checks = new PopChecks(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.POLLING_INFO, this::pollingInfo);
    }

    private Future<RemotingCommand> pollingInfo(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String group = header.requiredString("consumerGroup");
        String topic = header.requiredString("topic");
        int requested = header.requiredInt("queueId");
        int queueId = requested < 0 ? PopMessageRequest.ALL_QUEUES : requested;
        checks.requireBrokerReadable("peeking");
        checks.readableTopic(topic, queueId, connection);
        checks.consumingGroup(group);
        int held = holds.heldCount(new PopHolds.PollKey(topic, group, queueId));
        return Future.succeededFuture(RemotingCommand.response(request, ResponseCode.SUCCESS, null,
            Map.of("pollingNum", Integer.toString(held)), null));
    }
}
