package io.vrmq.broker.timer;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Map;

/**
 * Timer and delay requests in a SEND_BATCH_MESSAGE: a batch lands on one queue of one topic with consecutive offsets,
 * so its messages cannot be held one by one. RocketMQ refuses a batch with a delay level (MESSAGE_ILLEGAL) and stores
 * inner TIMER_* messages in the topic at once, dropping the requested time without a word; here both get
 * MESSAGE_ILLEGAL with a remark naming the message and the property, so a deliver time is never lost silently (send
 * such messages one by one). Stateless.
 */
public final class BatchTimerCheck {
    private BatchTimerCheck() {
    }

    /** The batch's own properties (header {@code i}). */
    public static void requireNoDelay(Map<String, String> batchProperties) {
        if (batchProperties.containsKey(MessageConst.DELAY_TIME_LEVEL)) {
            throw new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL,
                "a batch cannot be delayed (DELAY=" + batchProperties.get(MessageConst.DELAY_TIME_LEVEL)
                    + "): send delayed messages one by one");
        }
    }

    /** One inner message's properties; {@code index} counts from 0. */
    public static void requireNoTimer(String topic, int index, Map<String, String> properties) {
        String asked = properties.containsKey(MessageConst.DELAY_TIME_LEVEL) ? MessageConst.DELAY_TIME_LEVEL
            : TimerRouting.isTimerRequest(topic, properties) ? timerProperty(properties) : null;
        if (asked != null) {
            throw new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, "message " + index + " of the batch to "
                + topic + " asks for a delivery time (" + asked + "=" + properties.get(asked) + "): timer and delay "
                + "messages cannot be sent in a batch, send them one by one");
        }
    }

    private static String timerProperty(Map<String, String> properties) {
        for (String name : new String[] {MessageConst.TIMER_DELIVER_MS, MessageConst.TIMER_DELAY_SEC,
            MessageConst.TIMER_DELAY_MS, MessageConst.START_DELIVER_TIME}) {
            if (properties.containsKey(name)) {
                return name;
            }
        }
        return MessageConst.TIMER_DELIVER_MS;
    }
}
