package io.vrmq.client.producer;

import io.vrmq.client.MessageQueue;
import io.vrmq.client.route.TopicRouteCache;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SendMessageRequestHeaderV2, the one-letter header the official client sends with SEND_MESSAGE_V2 (310) and
 * SEND_BATCH_MESSAGE (320):
 * <pre>
 *  a producerGroup   b topic        c defaultTopic (TBW102)   d defaultTopicQueueNums   e queueId
 *  f sysFlag         g bornTimestamp  h flag                  i properties              j reconsumeTimes
 *  k unitMode        l maxReconsumeTimes (only %RETRY% topics) m batch                  n brokerName
 * </pre>
 * For a %RETRY% topic the reconsume counters move from the properties into the header, as the official client
 * moves them. Stateless.
 */
public final class SendRequestHeader {
    static final String RETRY_TOPIC_PREFIX = "%RETRY%";

    private SendRequestHeader() {
    }

    public static Map<String, String> of(String producerGroup, PreparedSend send, MessageQueue queue,
                                         int defaultTopicQueueNums, long bornTimestampMs) {
        Map<String, String> properties = new LinkedHashMap<>(send.properties());
        int reconsumeTimes = 0;
        String maxReconsumeTimes = null;
        if (send.topic().startsWith(RETRY_TOPIC_PREFIX)) {
            String times = properties.remove(MessageConst.RECONSUME_TIME);
            reconsumeTimes = times == null ? 0 : Integer.parseInt(times);
            maxReconsumeTimes = properties.remove(MessageConst.MAX_RECONSUME_TIMES);
        }
        Map<String, String> header = new HashMap<>();
        header.put("a", producerGroup);
        header.put("b", send.topic());
        header.put("c", TopicRouteCache.DEFAULT_TOPIC);
        header.put("d", Integer.toString(defaultTopicQueueNums));
        header.put("e", Integer.toString(queue.queueId()));
        header.put("f", Integer.toString(send.sysFlag()));
        header.put("g", Long.toString(bornTimestampMs));
        header.put("h", Integer.toString(send.flag()));
        header.put("i", MessageProperties.format(properties));
        header.put("j", Integer.toString(reconsumeTimes));
        header.put("k", "false");
        if (maxReconsumeTimes != null) {
            header.put("l", maxReconsumeTimes);
        }
        header.put("m", Boolean.toString(send.isBatch()));
        header.put("n", queue.brokerName());
        return header;
    }
}
