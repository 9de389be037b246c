package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Admin questions only a consumer can answer, relayed through its broker connection as RocketMQ's broker does
 * ({@code AdminBrokerProcessor.callConsumer}): GET_CONSUMER_RUNNING_INFO (307, what mqadmin consumerProgress -s
 * and consumerStatus ask) and CONSUME_MESSAGE_DIRECTLY (309, queryMsgById -d / consumeMessage). The request's header fields and body go unchanged to the client named by
 * consumerGroup + clientId as a sync broker → client request; the client's answer (code, remark, header fields, body:
 * a ConsumerRunningInfo) goes back unchanged under the admin's opaque. Errors take RocketMQ's codes and remarks.
 * Runs on the event loop; the wait for the client is a future, never a blocked thread.
 */
public final class ConsumerCallProcessor {
    /** RocketMQ's Broker2Client.callClient timeout. */
    static final long CALL_CLIENT_TIMEOUT_MS = 10_000;
    /** MQVersion.Version.V3_1_8_SNAPSHOT.ordinal(): older clients do not answer broker → client admin calls. */
    static final int MIN_CLIENT_VERSION = 62;
    private static final Logger log = LoggerFactory.getLogger(ConsumerCallProcessor.class);
    private static final int OFFSET_HEX_DIGITS = 16;

    private final BrokerContext broker;

    public ConsumerCallProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_CONSUMER_RUNNING_INFO,
            (connection, request) -> callConsumer(connection, request, request.extFieldsCopy(), request.body()));
        table.register(RequestCode.CONSUME_MESSAGE_DIRECTLY, this::consumeDirectly);
    }

    /**
     * CONSUME_MESSAGE_DIRECTLY (309): the broker attaches the stored message named by the offset msgId (and its own
     * name) before relaying, as RocketMQ's broker does; the consumer runs its listener on it and answers.
     */
    private Future<RemotingCommand> consumeDirectly(RemotingConnection connection, RemotingCommand request) {
        String msgId = request.header().requiredString("msgId");
        long commitLogOffset = commitLogOffsetOf(msgId);
        return broker.store().read(() -> {
            ByteBuffer record = broker.store().store().lookMessageByOffset(commitLogOffset);
            if (record == null) {
                return null;
            }
            byte[] bytes = new byte[record.remaining()];
            record.duplicate().get(bytes);
            return Buffer.buffer(bytes);
        }).compose(stored -> {
            if (stored == null) {
                return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                    "can not find message by the msgId " + msgId));
            }
            Map<String, String> header = request.extFieldsCopy();
            header.put("brokerName", broker.identity().brokerName());
            return callConsumer(connection, request, header, stored);
        });
    }

    /** The commit-log offset is the last 16 hex digits of an offset msgId (IPv4 and IPv6 forms alike). */
    private static long commitLogOffsetOf(String msgId) {
        if (msgId.length() < OFFSET_HEX_DIGITS) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "not an offset msgId: " + msgId);
        }
        try {
            return Long.parseUnsignedLong(msgId.substring(msgId.length() - OFFSET_HEX_DIGITS), 16);
        } catch (NumberFormatException e) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "not an offset msgId: " + msgId);
        }
    }

    private Future<RemotingCommand> callConsumer(RemotingConnection connection, RemotingCommand request,
                                                 Map<String, String> header, Buffer body) {
        String group = request.header().requiredString("consumerGroup");
        String clientId = request.header().requiredString("clientId");
        ClientChannel channel = findChannel(group, clientId);
        if (channel == null) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                String.format("The Consumer <%s> <%s> not online", group, clientId)));
        }
        if (channel.version() < MIN_CLIENT_VERSION) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                String.format("The Consumer <%s> Version <%d> too low to finish, please upgrade it to"
                    + " V3_1_8_SNAPSHOT", clientId, channel.version())));
        }
        RemotingCommand toClient = RemotingCommand.request(request.code(), header, body);
        log.debug("relaying request code {} from {} to consumer {} of group {}", request.code(),
            connection.remoteAddress(), clientId, group);
        return channel.connection().invoke(toClient, CALL_CLIENT_TIMEOUT_MS)
            .map(answer -> RemotingCommand.response(request, answer.code(), answer.remark(), answer.extFieldsCopy(),
                answer.hasBody() ? answer.body() : null))
            .recover(error -> Future.succeededFuture(failure(request, group, clientId, error)));
    }

    private ClientChannel findChannel(String group, String clientId) {
        ConsumerGroupInfo info = broker.clients().consumerGroup(group);
        if (info == null) {
            return null;
        }
        return info.channels().stream().filter(channel -> channel.clientId().equals(clientId)).findFirst()
            .orElse(null);
    }

    private static RemotingCommand failure(RemotingCommand request, String group, String clientId, Throwable error) {
        if (error instanceof RequestTimeoutException) {
            return RemotingCommand.failure(request, ResponseCode.CONSUME_MSG_TIMEOUT,
                String.format("consumer <%s> <%s> Timeout: %s", group, clientId, error.getMessage()));
        }
        log.warn("request code {} to consumer {} of group {} failed: {}", request.code(), clientId, group,
            error.toString());
        return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
            String.format("invoke consumer <%s> <%s> Exception: %s", group, clientId, error));
    }
}
