import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.selector.SelectMessageQueueByHash;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The official Apache RocketMQ 5.5.0 client, run by the client module's interop tests as a separate JVM (its Netty
 * 4.1 must not share a classpath with Vert.x's Netty 4.2), with the single-file source launcher:
 * {@code java -cp <official client classpath> OfficialClient.java produce|consume key=value...}.
 * Talks to the test through stdout lines: SENT, READY, RECEIVED (tab-separated fields), DONE.
 *
 * <p>produce: namesrv, topic, group, count. Message i has key k(i%2+1), tag TagB when i%3==2 else TagA, body
 * "key:seq|" (seq counts per key) padded to 6000 bytes every 10th message (compressed by the producer), property
 * color=red, queue chosen by hash of the key; then one message with key "delayed", TagA and delayLevel=2.
 * <p>consume: namesrv, topic, group, expr, mode (orderly|concurrent), expect (distinct message ids), failFirstKey
 * (RECONSUME_LATER on the first delivery of messages with exactly that key; the run then also waits for one
 * such message to come back), timeoutMs.
 */
public class OfficialClient {
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (int index = 1; index < args.length; index++) {
            String[] pair = args[index].split("=", 2);
            options.put(pair[0], pair.length > 1 ? pair[1] : "");
        }
        try {
            if ("produce".equals(args[0])) {
                produce(options);
                System.exit(0);
            } else {
                System.exit(consume(options) ? 0 : 2);
            }
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(3);
        }
    }

    static void produce(Map<String, String> options) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(options.get("group"));
        producer.setNamesrvAddr(options.get("namesrv"));
        producer.start();
        int count = Integer.parseInt(options.get("count"));
        Map<String, Integer> seqByKey = new HashMap<>();
        for (int index = 0; index < count; index++) {
            String key = "k" + (index % 2 + 1);
            int seq = seqByKey.merge(key, 1, Integer::sum) - 1;
            String tag = index % 3 == 2 ? "TagB" : "TagA";
            Message message = new Message(options.get("topic"), tag, key, body(key, seq, index % 10 == 9));
            message.putUserProperty("color", "red");
            SendResult result = producer.send(message, new SelectMessageQueueByHash(), key);
            System.out.println("SENT\t" + result.getMsgId() + "\t" + tag + "\t" + key + "\t" + seq);
        }
        Message delayed = new Message(options.get("topic"), "TagA", "delayed", body("delayed", 0, false));
        delayed.setDelayTimeLevel(2);
        SendResult result = producer.send(delayed);
        System.out.println("SENT\t" + result.getMsgId() + "\tTagA\tdelayed\t0");
        producer.shutdown();
        System.out.println("DONE");
    }

    static byte[] body(String key, int seq, boolean isLarge) {
        StringBuilder text = new StringBuilder(key + ":" + seq + "|");
        while (isLarge && text.length() < 6_000) {
            text.append("large body ");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    static boolean consume(Map<String, String> options) throws Exception {
        int expected = Integer.parseInt(options.get("expect"));
        String failFirstKey = options.getOrDefault("failFirstKey", "");
        Set<String> distinct = ConcurrentHashMap.newKeySet();
        Set<String> retried = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(1);
        int expectedRetried = failFirstKey.isEmpty() ? 0 : 1;
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(options.get("group"));
        consumer.setNamesrvAddr(options.get("namesrv"));
        // The retry topic only exists after the first heartbeat: poll routes every second, not every 30 s.
        consumer.setPollNameServerInterval(1_000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(options.get("topic"), options.get("expr"));
        if ("orderly".equals(options.get("mode"))) {
            consumer.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
                record(messages, distinct, expected, retried, expectedRetried, done);
                return ConsumeOrderlyStatus.SUCCESS;
            });
        } else {
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.stream().filter(message -> failFirstKey.equals(message.getKeys())
                    && message.getReconsumeTimes() > 0).forEach(message -> retried.add(message.getMsgId()));
                record(messages, distinct, expected, retried, expectedRetried, done);
                boolean isFirstOfFailing = messages.stream().anyMatch(message -> failFirstKey.equals(message.getKeys())
                    && message.getReconsumeTimes() == 0);
                return isFirstOfFailing ? ConsumeConcurrentlyStatus.RECONSUME_LATER
                    : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        }
        consumer.start();
        System.out.println("READY");
        boolean isComplete = done.await(Long.parseLong(options.get("timeoutMs")), TimeUnit.MILLISECONDS);
        consumer.shutdown();
        System.out.println(isComplete ? "DONE" : "TIMEOUT");
        return isComplete;
    }

    static synchronized void record(List<MessageExt> messages, Set<String> distinct, int expected,
                                    Set<String> retried, int expectedRetried, CountDownLatch done) {
        for (MessageExt message : messages) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            System.out.println("RECEIVED\t" + message.getMsgId() + "\t" + message.getTopic() + "\t"
                + message.getTags() + "\t" + message.getKeys() + "\t" + message.getReconsumeTimes() + "\t"
                + message.getQueueId() + "\t" + body.substring(0, body.indexOf('|')) + "\t" + body.length() + "\t"
                + body.hashCode() + "\t" + message.getUserProperty("color") + "\t" + message.getBornTimestamp()
                + "\t" + System.currentTimeMillis());
            distinct.add(message.getMsgId());
        }
        if (distinct.size() >= expected && retried.size() >= expectedRetried) {
            done.countDown();
        }
    }
}
