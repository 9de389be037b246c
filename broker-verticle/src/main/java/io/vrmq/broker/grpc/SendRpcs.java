package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.server.GrpcServer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.EndTransactionRequest;
import io.vrmq.grpc.proto.EndTransactionResponse;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageType;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.SendMessageRequest;
import io.vrmq.grpc.proto.SendMessageResponse;
import io.vrmq.grpc.proto.SendResultEntry;
import io.vrmq.grpc.proto.Status;
import io.vrmq.grpc.proto.TransactionResolution;
import io.vrmq.grpc.proto.TransactionSource;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SendMessage and EndTransaction. Each message of a SendMessage is checked ({@link MessageIn}), given its queue
 * ({@link QueueChoice}) and stored by SEND_MESSAGE_V2; the entries come back in order, and the reply's status is
 * MULTIPLE_RESULTS when they differ (clients look at the first entry that failed). A half message's transaction_id
 * names where it is stored ({@link TransactionId}); a timer message's recall_handle is the broker's recall handle
 * (see {@link RecallRpc}); EndTransaction turns it into END_TRANSACTION with producer
 * group = the topic. Runs on the endpoint's event loop.
 */
final class SendRpcs {
    /** END_TRANSACTION's commitOrRollback values (RocketMQ's MessageSysFlag). */
    private static final int COMMIT_TYPE = 0x2 << 2;
    private static final int ROLLBACK_TYPE = 0x3 << 2;
    private static final int NOT_TYPE = 0;

    private final BrokerContext broker;
    private final BrokerLink link;
    private final GrpcAuth auth;
    private final GrpcMeters meters;
    private final QueueChoice queues = new QueueChoice();

    SendRpcs(BrokerContext broker, BrokerLink link, GrpcMeters meters, GrpcAuth auth) {
        this.broker = broker;
        this.link = link;
        this.meters = meters;
        this.auth = auth;
    }

    void bindInto(GrpcServer server) {
        Unary.bind(server, MessagingServiceGrpcService.SendMessage, new Unary.Shape<>(
                status -> SendMessageResponse.newBuilder().setStatus(status).build(), SendMessageResponse::getStatus),
            meters, auth.guard(this::send));
        Unary.bind(server, MessagingServiceGrpcService.EndTransaction, new Unary.Shape<>(
                status -> EndTransactionResponse.newBuilder().setStatus(status).build(),
                EndTransactionResponse::getStatus),
            meters, auth.guard(this::endTransaction));
    }

    private Future<SendMessageResponse> send(GrpcCall call, SendMessageRequest request) {
        if (request.getMessagesCount() == 0) {
            throw new GrpcStatusException(Code.BAD_REQUEST, "no message to send");
        }
        List<Future<SendResultEntry>> entries = new ArrayList<>();
        for (Message message : request.getMessagesList()) {
            entries.add(sendOne(call, message).recover(error -> Future.succeededFuture(
                SendResultEntry.newBuilder().setStatus(Statuses.fromFailure(error)).build())));
        }
        return Future.all(entries).map(done -> {
            SendMessageResponse.Builder reply = SendMessageResponse.newBuilder();
            Status first = null;
            boolean isMixed = false;
            for (Future<SendResultEntry> entry : entries) {
                SendResultEntry result = entry.result();
                reply.addEntries(result);
                if (first == null) {
                    first = result.getStatus();
                } else if (first.getCode() != result.getStatus().getCode()) {
                    isMixed = true;
                }
            }
            return reply.setStatus(isMixed ? Statuses.of(Code.MULTIPLE_RESULTS, "entries differ") : first).build();
        });
    }

    private Future<SendResultEntry> sendOne(GrpcCall call, Message message) {
        MessageIn.Checked checked = MessageIn.check(message, broker.config().maxMessageSize(), call.remoteHost(),
            System.currentTimeMillis());
        TopicConfig topic = broker.topics().get(checked.topic());
        if (topic != null && !Routes.acceptedTypes(topic).contains(checked.type())) {
            throw new GrpcStatusException(Code.MESSAGE_PROPERTY_CONFLICT_WITH_TYPE, "topic " + checked.topic()
                + " accepts " + Routes.acceptedTypes(topic) + ", not " + checked.type() + " messages");
        }
        int queueId = queues.choose(checked.messageGroup(), topic == null ? 1 : topic.writeQueueNums());
        String messageId = message.getSystemProperties().getMessageId();
        return link.call(checked.toRequest(queueId)).map(reply -> {
            SendResultEntry.Builder entry = SendResultEntry.newBuilder().setStatus(Statuses.fromReply(reply));
            if (reply.code() != ResponseCode.SUCCESS) {
                return entry.build();
            }
            entry.setMessageId(messageId).setOffset(reply.header().optionalLong("queueOffset", 0));
            String recallHandle = reply.ext("recallHandle");
            if (recallHandle != null) {
                entry.setRecallHandle(recallHandle);
            }
            if (checked.type() == MessageType.TRANSACTION) {
                long commitLogOffset = commitLogOffsetOf(reply.ext("msgId"));
                entry.setTransactionId(new TransactionId(commitLogOffset,
                    reply.header().optionalLong("queueOffset", 0)).format());
            }
            return entry.build();
        });
    }

    private Future<EndTransactionResponse> endTransaction(GrpcCall call, EndTransactionRequest request) {
        TransactionId transaction = TransactionId.parse(request.getTransactionId());
        String topic = request.getTopic().getName();
        if (topic.isBlank()) {
            throw new GrpcStatusException(Code.ILLEGAL_TOPIC, "topic name cannot be empty");
        }
        int resolution = request.getResolution() == TransactionResolution.COMMIT ? COMMIT_TYPE
            : request.getResolution() == TransactionResolution.ROLLBACK ? ROLLBACK_TYPE : NOT_TYPE;
        Map<String, String> header = new HashMap<>();
        header.put("topic", topic);
        header.put("producerGroup", topic);
        header.put("tranStateTableOffset", Long.toString(transaction.tranStateTableOffset()));
        header.put("commitLogOffset", Long.toString(transaction.commitLogOffset()));
        header.put("commitOrRollback", Integer.toString(resolution));
        header.put("fromTransactionCheck", Boolean.toString(request.getSource()
            == TransactionSource.SOURCE_SERVER_CHECK));
        header.put("msgId", request.getMessageId());
        header.put("transactionId", request.getMessageId());
        return link.call(RemotingCommand.request(RequestCode.END_TRANSACTION, header, null))
            .map(reply -> EndTransactionResponse.newBuilder().setStatus(Statuses.fromReply(reply)).build());
    }

    /** The commit-log offset in an offset message id: its last 16 hex digits (after the store host and port). */
    static long commitLogOffsetOf(String offsetMsgId) {
        if (offsetMsgId == null || offsetMsgId.length() < 16) {
            throw new GrpcStatusException(Code.INTERNAL_SERVER_ERROR, "broker answered no offset message id: "
                + offsetMsgId);
        }
        return Long.parseUnsignedLong(offsetMsgId.substring(offsetMsgId.length() - 16), 16);
    }
}
