package io.vrmq.broker.retry;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.processor.DeliveryRouting;
import io.vrmq.broker.processor.SlaveWriteGuard;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * CONSUMER_SEND_MSG_BACK (36), RocketMQ's consumerSendMsgBack: a consumer could not consume the message at a
 * commit-log offset, so the broker stores a copy for a later attempt. The copy goes to {@code %RETRY%<group>} through
 * the schedule topic (delay level 3 + reconsume times unless the consumer chose one), with RETRY_TOPIC = the original
 * topic, ORIGIN_MESSAGE_ID and reconsume times + 1; once the reconsume times reach the limit (or the consumer asked
 * with a negative level) it goes to {@code %DLQ%<group>} instead. Validation runs on the event loop; the look-up runs
 * on a store reader thread and the copy on the writer thread.
 */
public final class SendBackProcessor {
    private static final Logger log = LoggerFactory.getLogger(SendBackProcessor.class);
    /** RocketMQ's first retry waits level 3 (10 s by default); each further attempt one level more. */
    private static final int FIRST_RETRY_DELAY_LEVEL = 3;

    private final BrokerContext broker;
    private final TopicResolver topics;
    private final DeliveryRouting routing;

    public SendBackProcessor(BrokerContext broker, TopicResolver topics, DeliveryRouting routing) {
        this.broker = broker;
        this.topics = topics;
        this.routing = routing;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CONSUMER_SEND_MSG_BACK, this::sendBack);
    }

    private Future<RemotingCommand> sendBack(RemotingConnection connection, RemotingCommand request) {
        SendBackRequest back = SendBackRequest.decode(request);
        SlaveWriteGuard.requireWritable(broker);
        SubscriptionGroupConfig group = broker.groups().findOrCreate(back.group());
        if (group == null) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                "subscription group not exist, " + back.group());
        }
        if (!Permission.isWritable(broker.config().brokerPermission())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "the broker["
                + broker.config().brokerIP1() + "] sending message is forbidden");
        }
        if (group.retryQueueNums() <= 0) {
            // RocketMQ's way to switch retries off for a group: the message is dropped and the consumer told OK.
            return Future.succeededFuture(RemotingCommand.response(request, ResponseCode.SUCCESS, null, null, null));
        }
        TopicConfig retryTopic = topics.retryTopic(back.group());
        if (!Permission.isWritable(retryTopic.perm())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "the topic[" + retryTopic.topicName()
                + "] sending message is forbidden");
        }
        return broker.store().read(() -> lookUp(back.offset()))
            .compose(original -> {
                if (original == null) {
                    return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                        "look message by offset failed, " + back.offset()));
                }
                MessageToStore copy = copyFor(back, group, retryTopic, original);
                return broker.store().append(copy).map(result -> reply(request, back, copy, result));
            });
    }

    /** Reader thread. */
    private StoredMessage lookUp(long commitLogOffset) {
        ByteBuffer record = broker.store().store().lookMessageByOffset(commitLogOffset);
        return record == null ? null : StoredMessage.decode(record);
    }

    private MessageToStore copyFor(SendBackRequest back, SubscriptionGroupConfig group, TopicConfig retryTopic,
                                   StoredMessage original) {
        Map<String, String> properties = original.propertyMap();
        properties.putIfAbsent(MessageConst.RETRY_TOPIC, original.topic());
        properties.put(MessageConst.WAIT_STORE_MSG_OK, "false");
        String originId = properties.get(MessageConst.ORIGIN_MESSAGE_ID);
        if (originId == null || originId.isBlank()) {
            properties.put(MessageConst.ORIGIN_MESSAGE_ID, original.offsetMsgId());
        }
        int maxReconsumeTimes = back.maxReconsumeTimes() != null && back.maxReconsumeTimes() >= 0
            ? back.maxReconsumeTimes() : group.retryMaxTimes();
        int reconsumeTimes = original.reconsumeTimes() + 1;
        DeliveryRouting.Destination destination;
        if (original.reconsumeTimes() >= maxReconsumeTimes || back.delayLevel() < 0) {
            properties.put(MessageConst.DLQ_ORIGIN_TOPIC, properties.get(MessageConst.RETRY_TOPIC));
            properties.put(MessageConst.DLQ_ORIGIN_MESSAGE_ID, properties.getOrDefault(
                MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, properties.get(MessageConst.ORIGIN_MESSAGE_ID)));
            destination = routing.toDeadLetter(back.group(), properties);
        } else {
            int delayLevel = back.delayLevel() == 0 ? FIRST_RETRY_DELAY_LEVEL + original.reconsumeTimes()
                : back.delayLevel();
            properties.put(MessageConst.DELAY_TIME_LEVEL, Integer.toString(delayLevel));
            int queueNums = Math.max(1, Math.min(group.retryQueueNums(), retryTopic.writeQueueNums()));
            int queueId = ThreadLocalRandom.current().nextInt(queueNums);
            destination = routing.route(retryTopic.topicName(), queueId, properties, reconsumeTimes,
                maxReconsumeTimes, original.sysFlag());
        }
        return original.copyTo(destination.topic(), destination.queueId(), properties, reconsumeTimes);
    }

    private static RemotingCommand reply(RemotingCommand request, SendBackRequest back, MessageToStore copy,
                                         AppendResult result) {
        if (!result.isOk()) {
            log.warn("send-back of offset {} for group {} not stored: {} {}", back.offset(), back.group(),
                result.status(), result.remark());
            return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR, result.status().name());
        }
        log.debug("send-back of offset {} for group {} stored to {}-{} at {}", back.offset(), back.group(),
            copy.topic(), copy.queueId(), result.commitLogOffset());
        return RemotingCommand.response(request, ResponseCode.SUCCESS, null, null, null);
    }
}
