package io.vrmq.compat.pop;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.consumer.AckStatus;
import org.apache.rocketmq.client.consumer.PopResult;
import org.apache.rocketmq.client.consumer.PopStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SYNC_FLUSH broker killed with SIGKILL while popped messages are in flight: after the restart every message whose
 * ack was not answered SUCCESS comes back (from the retry topic, reconsume times 1) and no acked one does. The
 * popped checkpoints and the acks are revive-log records flushed before their answers.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class PopCrashIT {
    private static final int MESSAGE_COUNT = 20;
    private static final long INVISIBLE_MS = 8_000;
    private static final int SEND_TIMEOUT_MS = 15_000;
    private static final Duration BACK_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQProducer producer;
    private static PopClient client;

    @BeforeAll
    static void startNameServerAndSyncFlushBroker() throws Exception {
        bed = TestBed.start(resources, brokers, dir, "broker-pop-crash",
            settings -> settings.withFlushDiskType("SYNC_FLUSH"));
        producer = bed.clients().producer(uniqueName("crash_producer"));
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        client = new PopClient(producer, bed.broker().brokerName(), bed.broker().address());
    }

    @Test
    void afterAKillEveryUnackedMessageComesBackAndNoAckedOneDoes() throws Exception {
        String topic = Topics.create(producer, uniqueName("PopCrash"));
        String group = uniqueName("crash_group");
        for (int i = 0; i < MESSAGE_COUNT; i++) {
            SendResult result = producer.send(new Message(topic, "TagA", ("c" + i).getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
        List<MessageExt> popped = new ArrayList<>();
        Await.until("all " + MESSAGE_COUNT + " popped", BACK_TIMEOUT, () -> {
            PopResult result = client.pop(group, topic, -1, 32, INVISIBLE_MS, 1_000, false, null);
            if (result.getPopStatus() == PopStatus.FOUND) {
                popped.addAll(result.getMsgFoundList());
            }
            return popped.size() >= MESSAGE_COUNT;
        });
        Set<String> acked = new TreeSet<>();
        Set<String> unacked = new TreeSet<>();
        for (MessageExt message : popped) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            if (Integer.parseInt(body.substring(1)) % 2 == 0) {
                assertEquals(AckStatus.OK, client.ack(group, message).getStatus(), "ack of " + body);
                acked.add(body);
            } else {
                unacked.add(body);
            }
        }

        bed.broker().kill();
        bed.broker().start();

        Map<String, Integer> back = new TreeMap<>();
        Await.until("every unacked message back after the restart: " + unacked, BACK_TIMEOUT, () -> {
            popBack(group, topic, back);
            return back.keySet().containsAll(unacked);
        });
        long settled = System.currentTimeMillis();
        Await.until("one more invisible time", Duration.ofSeconds(30), () -> {
            popBack(group, topic, back);
            return System.currentTimeMillis() - settled > INVISIBLE_MS + 2_000;
        });
        assertEquals(unacked, back.keySet(), "redelivered after the kill (acked: " + acked + ")");
        assertTrue(back.values().stream().allMatch(times -> times == 1), "reconsume times of the redeliveries: "
            + back);
    }

    /** Pops what comes back, acking each, and records body → reconsume times (a second arrival would fail). */
    private static void popBack(String group, String topic, Map<String, Integer> back) throws Exception {
        PopResult result = client.pop(group, topic, -1, 32, INVISIBLE_MS, 1_000, false, null);
        if (result.getPopStatus() != PopStatus.FOUND) {
            return;
        }
        for (MessageExt message : result.getMsgFoundList()) {
            String body = new String(message.getBody(), StandardCharsets.UTF_8);
            Integer previous = back.put(body, message.getReconsumeTimes());
            if (previous != null) {
                throw new AssertionError(body + " came back twice");
            }
            assertEquals(AckStatus.OK, client.ack(group, message).getStatus(), "ack of " + body);
        }
    }
}
