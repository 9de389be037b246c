package io.vrmq.broker.processor;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.recall.RecallHandle;
import io.vrmq.broker.topic.TopicNames;
import io.vrmq.broker.timer.BatchTimerCheck;
import io.vrmq.broker.trace.TraceStamp;
import io.vrmq.broker.transaction.HalfMessages;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.AppendResult;
import io.vrmq.store.FlushStatus;
import io.vrmq.store.MessageToStore;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SEND_MESSAGE (10), SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320). On the event loop: decode, validate,
 * resolve (and maybe create) the topic, route (retry → DLQ, delay → schedule topic, half message → transaction half
 * topic; the reply still names the real queue, as RocketMQ's does); then the append runs on the
 * store's writer thread and, unless the producer said WAIT=false, the reply waits for durability (SYNC_FLUSH) and,
 * on a SYNC_MASTER, for a slave's acknowledgement. A slave refuses them all. The reply to a timer message carries
 * its recall handle ({@link RecallHandle}).
 * <p>
 * Threads: runs on the event loop of the send's connection, one of {@code serverSelectorThreads}: the tables and
 * routing it uses are thread-safe ({@link BrokerContext}), the append is handed to the store's single writer in the
 * order this loop received the sends, and a wait for a slave hops to the HA side's context.
 */
public final class SendMessageProcessor {
    private final BrokerContext broker;
    private final TopicResolver topics;
    private final DeliveryRouting routing;
    /** What every stored send's properties end with: CLUSTER, MSG_REGION, TRACE_ON. */
    private final String storedSuffix;

    public SendMessageProcessor(BrokerContext broker, TopicResolver topics, DeliveryRouting routing) {
        this.broker = broker;
        this.topics = topics;
        this.routing = routing;
        this.storedSuffix = PlainSendProperties.brokerSuffix(broker.config().brokerClusterName(),
            TraceStamp.DEFAULT_REGION, TraceStamp.TRACE_ON);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(this::send, RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2);
        table.register(RequestCode.SEND_BATCH_MESSAGE, this::sendBatch);
    }

    private Future<RemotingCommand> send(RemotingConnection connection, RemotingCommand request) {
        SendRequest send = SendRequest.decode(request);
        SlaveWriteGuard.requireWritable(broker);
        if (!request.hasBody()) {
            throw new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, "message body is empty");
        }
        TopicConfig topic = topics.forSend(send.topic(), send.defaultTopic(), send.defaultTopicQueueNums(), 0);
        int queueId = TopicResolver.queueFor(topic, send.queueId(), send.producerGroup());
        // A retry topic may route to its dead-letter topic: the map path decides.
        PlainSendProperties plain = TopicNames.isRetryTopic(topic.topicName()) ? null
            : PlainSendProperties.scanOrNull(send.properties(), storedSuffix);
        return plain != null ? sendPlain(connection, request, send, topic.topicName(), queueId, plain)
            : sendRouted(connection, request, send, topic, queueId);
    }

    /** A message stored where it was sent, its properties as sent plus the broker's three: no map (see the class). */
    private Future<RemotingCommand> sendPlain(RemotingConnection connection, RemotingCommand request,
                                              SendRequest send, String topic, int queueId,
                                              PlainSendProperties plain) {
        FrameBody body = FrameBody.of(request.body());
        MessageToStore message = new MessageToStore(topic, queueId, send.flag(), body.array(), body.offset(),
            body.length(), plain.storedText(), send.sysFlag(), send.bornTimestamp(),
            connection.remoteInetSocketAddress(), send.reconsumeTimes(), 0);
        boolean isWaitFlush = plain.isWaitFlush();
        requireEnoughReplicas(isWaitFlush);
        int bodyBytes = request.body().length();
        return broker.store().append(message)
            .map(result -> counted(result, topic, 1, bodyBytes))
            .compose(result -> reply(request, result, isWaitFlush, queueId, plain.uniqKey(), null));
    }

    /** Any other message: its properties parsed into a map, routed (delay, timer, transaction, dead letter). */
    private Future<RemotingCommand> sendRouted(RemotingConnection connection, RemotingCommand request,
                                               SendRequest send, TopicConfig topic, int queueId) {
        Map<String, String> properties = MessageProperties.parse(send.properties());
        properties.put(MessageConst.CLUSTER, broker.config().brokerClusterName());
        TraceStamp.stamp(properties);
        DeliveryRouting.Destination destination = routing.routeSend(topic.topicName(), queueId, properties,
            send.reconsumeTimes(), send.maxReconsumeTimes(), send.sysFlag());
        int sysFlag = destination.isHalfMessage() ? HalfMessages.storedSysFlag(send.sysFlag()) : send.sysFlag();
        MessageToStore message = new MessageToStore(destination.topic(), destination.queueId(), send.flag(),
            request.body().getBytes(), MessageProperties.format(properties), sysFlag, send.bornTimestamp(),
            connection.remoteInetSocketAddress(), send.reconsumeTimes(), 0);
        boolean isWaitFlush = !"false".equals(properties.get(MessageConst.WAIT_STORE_MSG_OK));
        requireEnoughReplicas(isWaitFlush);
        String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        int bodyBytes = request.body().length();
        // A half message counts against the half topic; its commit later counts against the real one, as in RocketMQ.
        String countedTopic = destination.isHalfMessage() ? destination.topic() : topic.topicName();
        String recallHandle = RecallHandle.forStoredSend(properties, broker.config().brokerName());
        return broker.store().append(message)
            .map(result -> counted(result, countedTopic, 1, bodyBytes))
            .compose(result -> reply(request, result, isWaitFlush, queueId, uniqKey, null))
            .map(reply -> withRecallHandle(reply, recallHandle));
    }

    /** A stored timer message's reply carries its recall handle (field recallHandle), as RocketMQ 5.5.0's does. */
    private static RemotingCommand withRecallHandle(RemotingCommand reply, String recallHandle) {
        if (recallHandle == null || reply.ext("msgId") == null) {
            return reply;
        }
        Map<String, String> fields = reply.extFieldsCopy();
        fields.put("recallHandle", recallHandle);
        return reply.withExtFields(fields);
    }

    private Future<RemotingCommand> sendBatch(RemotingConnection connection, RemotingCommand request) {
        SendRequest send = SendRequest.decode(request);
        SlaveWriteGuard.requireWritable(broker);
        TopicConfig topic = topics.forSend(send.topic(), send.defaultTopic(), send.defaultTopicQueueNums(), 0);
        int queueId = TopicResolver.queueFor(topic, send.queueId(), send.producerGroup());
        InetSocketAddress bornHost = connection.remoteInetSocketAddress();
        List<MessageToStore> messages = new ArrayList<>();
        StringBuilder uniqKeys = new StringBuilder();
        long bodyBytes = 0;
        BatchTimerCheck.requireNoDelay(MessageProperties.parse(send.properties()));
        for (BatchBodyDecoder.BatchMessage inner : BatchBodyDecoder.decode(request.body())) {
            bodyBytes += inner.body().length;
            Map<String, String> properties = MessageProperties.parse(inner.properties());
            BatchTimerCheck.requireNoTimer(topic.topicName(), messages.size(), properties);
            properties.put(MessageConst.CLUSTER, broker.config().brokerClusterName());
            String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            if (uniqKey != null) {
                uniqKeys.append(uniqKeys.length() == 0 ? "" : ",").append(uniqKey);
            }
            messages.add(new MessageToStore(topic.topicName(), queueId, inner.flag(), inner.body(),
                MessageProperties.format(properties), send.sysFlag(), send.bornTimestamp(), bornHost,
                send.reconsumeTimes(), 0));
        }
        Map<String, String> batchProperties = MessageProperties.parse(send.properties());
        boolean isWaitFlush = !"false".equals(batchProperties.get(MessageConst.WAIT_STORE_MSG_OK));
        requireEnoughReplicas(isWaitFlush);
        long batchBodyBytes = bodyBytes;
        return broker.store().appendBatch(messages)
            .map(result -> counted(result, topic.topicName(), messages.size(), batchBodyBytes))
            .compose(result -> reply(request, result, isWaitFlush, queueId, null, uniqKeys.toString()));
    }

    /**
     * Controller mode: a SYNC_MASTER whose SyncStateSet is below minInSyncReplicas refuses a send that waits for
     * replicas before storing it, with RocketMQ's answer.
     */
    private void requireEnoughReplicas(boolean isWaitFlush) {
        if (isWaitFlush && broker.role().current().isSyncMaster() && !broker.replication().hasEnoughInSyncReplicas()) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "in-sync replicas not enough");
        }
    }

    /** Counts a stored append for the per-topic meters; the hot path does one map look-up. */
    private AppendResult counted(AppendResult result, String topic, int messageCount, long bodyBytes) {
        if (result.isOk()) {
            broker.metrics().messagesStored(topic, messageCount, bodyBytes);
        }
        return result;
    }

    private Future<RemotingCommand> reply(RemotingCommand request, AppendResult result, boolean isWaitFlush,
                                          int queueId, String uniqKey, String batchUniqKeys) {
        if (!result.isOk()) {
            return Future.succeededFuture(StoreReplies.refused(request, result));
        }
        String msgId = result.offsetMsgId();
        Future<FlushStatus> flushed = isWaitFlush ? broker.store().durability(result)
            : Future.succeededFuture(FlushStatus.FLUSH_OK);
        boolean isWaitSlave = isWaitFlush && broker.role().current().isSyncMaster();
        return flushed.compose(flush -> {
            if (!isWaitSlave || flush != FlushStatus.FLUSH_OK) {
                return Future.succeededFuture(StoreReplies.stored(request, result, flush, msgId, queueId,
                    uniqKey != null ? uniqKey : batchUniqKeys));
            }
            return broker.replication().awaitSlave(result.commitLogOffset() + result.sizeBytes())
                .map(ack -> StoreReplies.replicated(request, result, ack, msgId, queueId,
                    uniqKey != null ? uniqKey : batchUniqKeys));
        });
    }
}
