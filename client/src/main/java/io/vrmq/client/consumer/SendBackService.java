package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.Message;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.producer.MessageSender;
import io.vrmq.client.producer.SendPreparation;
import io.vrmq.remoting.message.MessageConst;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a message the listener could not consume back for a later retry, as the official consumer does: first
 * CONSUMER_SEND_MSG_BACK (36) to the broker it came from; if that fails, a plain send to {@code %RETRY%<group>} with
 * RETRY_TOPIC, RECONSUME_TIME = reconsumeTimes + 1, MAX_RECONSUME_TIMES, ORIGIN_MESSAGE_ID and delay level
 * 3 + reconsumeTimes. Confined to the consumer's context.
 */
public final class SendBackService {
    /** The broker's first retry level (10 s by default); each attempt one level later. */
    static final int FIRST_RETRY_DELAY_LEVEL = 3;
    private static final Logger log = LoggerFactory.getLogger(SendBackService.class);

    private final ConsumerBrokerApi broker;
    private final SendPreparation preparation;
    private final MessageSender sender;
    private final String retryTopic;
    private final int maxReconsumeTimes;

    public SendBackService(ConsumerBrokerApi broker, SendPreparation preparation, MessageSender sender,
                           String group, int maxReconsumeTimes) {
        this.broker = broker;
        this.preparation = preparation;
        this.sender = sender;
        this.retryTopic = ConsumerTopics.retryTopic(group);
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    /** @param delayLevel 0: the broker's choice (3 + reconsume times); -1: straight to the dead-letter topic */
    public Future<Void> sendBack(ReceivedMessage message, int delayLevel) {
        return broker.sendBack(message, delayLevel, maxReconsumeTimes).recover(error -> {
            log.warn("send back of {} failed ({}), re-sending it to {}", message.msgId(), error.getMessage(),
                retryTopic);
            return resend(message);
        });
    }

    private Future<Void> resend(ReceivedMessage message) {
        String originId = message.property(MessageConst.ORIGIN_MESSAGE_ID);
        Message copy = Message.of(retryTopic, message.body()).withFlag(message.flag());
        for (var property : message.properties().entrySet()) {
            copy = copy.withProperty(property.getKey(), property.getValue());
        }
        copy = copy.withProperty(MessageConst.ORIGIN_MESSAGE_ID, originId == null || originId.isBlank()
                ? message.msgId() : originId)
            .withProperty(MessageConst.RETRY_TOPIC, message.topic())
            .withProperty(MessageConst.RECONSUME_TIME, Integer.toString(message.reconsumeTimes() + 1))
            .withProperty(MessageConst.MAX_RECONSUME_TIMES, Integer.toString(maxReconsumeTimes))
            .withoutProperty(MessageConst.TRANSACTION_PREPARED)
            .withoutProperty(MessageConst.MIN_OFFSET)
            .withoutProperty(MessageConst.MAX_OFFSET)
            .withDelayLevel(FIRST_RETRY_DELAY_LEVEL + message.reconsumeTimes());
        Message resent = copy;
        return Future.<Void>succeededFuture()
            .compose(ignored -> sender.send(preparation.single(resent)))
            .mapEmpty();
    }
}
