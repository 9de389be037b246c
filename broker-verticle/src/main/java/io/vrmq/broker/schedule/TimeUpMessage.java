package io.vrmq.broker.schedule;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The message a due delayed message becomes, as RocketMQ's ScheduleMessageService.messageTimeUp builds it: same body,
 * flag, sys flag, born fields and reconsume times, stored to REAL_TOPIC / REAL_QID, with DELAY, TIMER_DELIVER_MS and
 * TIMER_DELAY_SEC cleared and WAIT=false. REAL_TOPIC and REAL_QID stay on the message, as they do in RocketMQ (the
 * official consumer sees them there). Pure; any thread.
 */
public final class TimeUpMessage {
    private static final Logger log = LoggerFactory.getLogger(TimeUpMessage.class);

    private TimeUpMessage() {
    }

    /** The message for the real topic, or null (logged) when the stored one names no usable real topic. */
    public static MessageToStore from(StoredMessage held) {
        Map<String, String> properties = held.propertyMap();
        String realTopic = properties.get(MessageConst.REAL_TOPIC);
        int realQueueId = parseQueueId(properties.get(MessageConst.REAL_QUEUE_ID));
        if (realTopic == null || realTopic.isBlank() || realQueueId < 0) {
            log.error("delayed message at commit log offset {} has no usable REAL_TOPIC/REAL_QID ({}/{}): skipped",
                held.commitLogOffset(), realTopic, properties.get(MessageConst.REAL_QUEUE_ID));
            return null;
        }
        properties.put(MessageConst.WAIT_STORE_MSG_OK, "false");
        properties.remove(MessageConst.DELAY_TIME_LEVEL);
        properties.remove(MessageConst.TIMER_DELIVER_MS);
        properties.remove(MessageConst.TIMER_DELAY_SEC);
        return held.copyTo(realTopic, realQueueId, properties, held.reconsumeTimes());
    }

    static int parseQueueId(String value) {
        if (value == null) {
            return -1;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
