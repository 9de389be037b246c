package io.vrmq.broker.timer;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The message a due timer message becomes, as RocketMQ's TimerMessageStore.convert builds it: same body, flag, sys
 * flag, born fields and reconsume times, stored to REAL_TOPIC / REAL_QID (both then removed), WAIT=false,
 * TIMER_ENQUEUE_MS (when the timer took it) and TIMER_DEQUEUE_MS (now) added. TIMER_OUT_MS stays, which is what keeps
 * the delivered message from being held again. Pure; any thread.
 */
final class TimerDelivery {
    static final String TIMER_ENQUEUE_MS = "TIMER_ENQUEUE_MS";
    static final String TIMER_DEQUEUE_MS = "TIMER_DEQUEUE_MS";
    private static final Logger log = LoggerFactory.getLogger(TimerDelivery.class);

    private TimerDelivery() {
    }

    /** The message for the real topic, or null (logged) when the held one names no usable real topic. */
    static MessageToStore from(StoredMessage held, long nowMs) {
        Map<String, String> properties = held.propertyMap();
        String realTopic = properties.remove(MessageConst.REAL_TOPIC);
        String realQueueId = properties.remove(MessageConst.REAL_QUEUE_ID);
        int queueId = parseQueueId(realQueueId);
        if (realTopic == null || realTopic.isBlank() || queueId < 0) {
            log.error("timer message at commit log offset {} has no usable REAL_TOPIC/REAL_QID ({}/{}): skipped",
                held.commitLogOffset(), realTopic, realQueueId);
            return null;
        }
        properties.put(TIMER_ENQUEUE_MS, Long.toString(held.storeTimestamp()));
        properties.put(TIMER_DEQUEUE_MS, Long.toString(nowMs));
        properties.put(MessageConst.WAIT_STORE_MSG_OK, "false");
        return held.copyTo(realTopic, queueId, properties, held.reconsumeTimes());
    }

    private static int parseQueueId(String value) {
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
