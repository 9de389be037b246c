package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * CHANGE_MESSAGE_INVISIBLETIME (200053), RocketMQ's ChangeInvisibleTimeProcessor: checks topic, queue and offset
 * (NO_MESSAGE unless min &lt;= offset &lt; max), then moves the message's deadline through {@link AckService}. The
 * answer carries popTime, invisibleTime and reviveQid, from which the client builds the message's new receipt; the
 * old receipt is stale from then on. An invisible time outside 0..maxInvisibleTimeMills is INVALID_PARAMETER (ours:
 * RocketMQ's broker takes any, its proxy refuses these). Runs on the broker's context.
 */
public final class ChangeInvisibleTimeProcessor {
    private final AckService acks;
    private final PopChecks checks;
    private final PopConfig config;

    ChangeInvisibleTimeProcessor(BrokerContext broker, PopConfig config, AckService acks) {
        this.acks = acks;
        this.checks = new PopChecks(broker);
        this.config = config;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, this::change);
    }

    private Future<RemotingCommand> change(RemotingConnection connection, RemotingCommand request) {
        AckRequest change = AckRequest.decodeChange(request);
        checks.ackedTopic(change.topic(), change.queueId(), connection);
        checks.requireOffsetInQueue(change.topic(), change.queueId(), change.offset(), false);
        if (change.invisibleTime() < 0 || change.invisibleTime() > config.maxInvisibleTimeMills()) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "invisibleTime "
                + change.invisibleTime() + " ms is outside 0.." + config.maxInvisibleTimeMills()
                + " (maxInvisibleTimeMills)");
        }
        ExtraInfo receipt = ExtraInfo.parse(change.extraInfo());
        QueueKey queue = new QueueKey(change.consumerGroup(), change.topic(), change.queueId());
        return acks.change(queue, receipt, change.offset(), change.invisibleTime(), change.isSuspend())
            .map(changed -> RemotingCommand.response(request, ResponseCode.SUCCESS, null, Map.of(
                "popTime", Long.toString(changed.popTime()),
                "invisibleTime", Long.toString(changed.invisibleTime()),
                "reviveQid", Integer.toString(changed.reviveQid())), null));
    }
}
