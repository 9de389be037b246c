package io.vrmq.broker.pop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.TagFilter;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * POP_MESSAGE (200050), RocketMQ's PopMessageProcessor: checks the request as RocketMQ does (too late, broker and
 * topic permissions, at most 32 messages, queue, group), pops ({@link PopService}) and answers SUCCESS with the
 * stored records and the receipt fields, or, with nothing to hand out, holds the request ({@link PopHolds}) until a
 * message arrives or its poll time ends: POLLING_TIMEOUT then, POLLING_FULL when too many are held. A held pop runs
 * again whole when woken. Runs on the broker's context.
 */
public final class PopMessageProcessor {
    private final BrokerContext broker;
    private final PopService pops;
    private final PopHolds holds;
    private final PopChecks checks;
    private final long maxInvisibleTimeMs;

    PopMessageProcessor(BrokerContext broker, PopConfig config, PopService pops, PopHolds holds) {
        this.broker = broker;
        this.maxInvisibleTimeMs = config.maxInvisibleTimeMills();
        this.pops = pops;
        this.holds = holds;
        this.checks = new PopChecks(broker);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.POP_MESSAGE, this::pop);
    }

    private Future<RemotingCommand> pop(RemotingConnection connection, RemotingCommand request) {
        PopMessageRequest pop = PopMessageRequest.decode(request, System.currentTimeMillis());
        Promise<RemotingCommand> reply = Promise.promise();
        run(connection, request, pop, reply);
        return reply.future();
    }

    private void run(RemotingConnection connection, RemotingCommand request, PopMessageRequest pop,
                     Promise<RemotingCommand> reply) {
        Future<PopResult> popped;
        try {
            TopicConfig topic = validate(connection, pop);
            TagFilter filter = checks.filterOf(pop.topic(), pop.expType(), pop.exp());
            popped = pops.pop(pop, topic, filter);
        } catch (RemotingCommandException e) {
            reply.complete(RemotingCommand.failure(request, e.responseCode(), e.getMessage()));
            return;
        } catch (RuntimeException e) {
            reply.fail(e);
            return;
        }
        popped.onComplete(done -> {
            if (done.failed()) {
                reply.fail(done.cause());
                return;
            }
            try {
                answer(connection, request, pop, done.result(), reply);
            } catch (RuntimeException e) {
                reply.tryFail(e);
            }
        });
    }

    private void answer(RemotingConnection connection, RemotingCommand request, PopMessageRequest pop,
                        PopResult result, Promise<RemotingCommand> reply) {
        if (result.isFound()) {
            if (result.restNum() > 0) {
                holds.notifyArrived(pop.topic(), pop.consumerGroup(), pop.queueId());
            }
            reply.complete(found(request, result));
            return;
        }
        if (pop.pollTime() <= 0) {
            reply.complete(notFound(request, result, ResponseCode.POLLING_TIMEOUT));
            return;
        }
        PopHolds.Outcome held = holds.hold(new PopHolds.PollKey(pop.topic(), pop.consumerGroup(), pop.queueId()),
            pop.deadlineMs(), () -> rerun(connection, request, pop, reply));
        if (held == PopHolds.Outcome.HELD) {
            return;
        }
        reply.complete(notFound(request, result, held == PopHolds.Outcome.FULL ? ResponseCode.POLLING_FULL
            : ResponseCode.POLLING_TIMEOUT));
    }

    /** A held pop's second run; a client that went away meanwhile gets nothing popped for it. */
    private void rerun(RemotingConnection connection, RemotingCommand request, PopMessageRequest pop,
                       Promise<RemotingCommand> reply) {
        if (connection.isClosed()) {
            reply.fail(new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "connection closed while held"));
            return;
        }
        run(connection, request, pop, reply);
    }

    private TopicConfig validate(RemotingConnection connection, PopMessageRequest pop) {
        if (pop.isTimeoutTooMuch(System.currentTimeMillis())) {
            throw new RemotingCommandException(ResponseCode.POLLING_TIMEOUT, String.format(
                "the broker[%s] pop message is timeout too much", broker.config().brokerIP1()));
        }
        checks.requireBrokerReadable("pop");
        if (pop.maxMsgNums() > PopConfig.MAX_POP_MESSAGES) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, String.format(
                "the broker[%s] pop message's num is greater than 32", broker.config().brokerIP1()));
        }
        if (pop.maxMsgNums() <= 0 || pop.invisibleTime() <= 0 || pop.invisibleTime() > maxInvisibleTimeMs) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "maxMsgNums " + pop.maxMsgNums()
                + " must be positive and invisibleTime " + pop.invisibleTime() + " ms in 1.." + maxInvisibleTimeMs
                + " (maxInvisibleTimeMills)");
        }
        TopicConfig topic = checks.readableTopic(pop.topic(), pop.queueId(), connection);
        checks.consumingGroup(pop.consumerGroup());
        return topic;
    }

    private static RemotingCommand found(RemotingCommand request, PopResult result) {
        ByteBuffer[] records = result.records().toArray(new ByteBuffer[0]);
        ByteBuf wrapped = Unpooled.wrappedBuffer(records);
        Buffer body = BufferInternal.buffer(wrapped);
        return RemotingCommand.response(request, ResponseCode.SUCCESS, "FOUND", header(result), body);
    }

    private static RemotingCommand notFound(RemotingCommand request, PopResult result, int code) {
        return RemotingCommand.response(request, code, "NO_MESSAGE_IN_QUEUE", header(result), null);
    }

    /** RocketMQ's PopMessageResponseHeader. */
    private static Map<String, String> header(PopResult result) {
        Map<String, String> header = new HashMap<>();
        header.put("popTime", Long.toString(result.popTime()));
        header.put("invisibleTime", Long.toString(result.invisibleTime()));
        header.put("reviveQid", Integer.toString(result.reviveQid()));
        header.put("restNum", Long.toString(result.restNum()));
        header.put("startOffsetInfo", result.startOffsetInfo());
        header.put("msgOffsetInfo", result.msgOffsetInfo());
        if (result.orderCountInfo() != null) {
            header.put("orderCountInfo", result.orderCountInfo());
        }
        return header;
    }
}
