package io.vrmq.compat.pop;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;

import io.vrmq.compat.mqadmin.MqAdmin;
import io.vrmq.compat.support.Await;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;

/**
 * Putting the official 5.5.0 push consumer into POP mode the way an operator does: {@code mqadmin setConsumeMode -m
 * POP} for the group and topic, and the consumer with clientRebalance off, so it asks the broker for its queues
 * (QUERY_ASSIGNMENT) and the broker answers them in POP mode. Stateless; test thread.
 */
public final class PopConsumers {
    /** The client's smallest popInvisibleTime (DefaultMQPushConsumerImpl.MIN_POP_INVISIBLE_TIME). */
    public static final long MIN_INVISIBLE_TIME_MS = 5_000;
    private static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(30);

    private PopConsumers() {
    }

    /** {@code mqadmin setConsumeMode -c <cluster> -t <topic> -g <group> -m POP}, which must report success. */
    public static void setPopMode(String namesrvAddr, String cluster, String topic, String group) {
        MqAdmin.Output output = MqAdmin.run(namesrvAddr, "setConsumeMode", "-c", cluster, "-t", topic, "-g", group,
            "-m", "POP");
        if (!output.stdout().contains("set consume mode to") || !output.stdout().contains("success")) {
            throw new AssertionError("setConsumeMode did not succeed: " + output);
        }
    }

    /** Configures a not yet started consumer for POP: broker-side balancing, the given invisible time and batch. */
    public static void configure(DefaultMQPushConsumer consumer, long invisibleTimeMs, int batchNums) {
        consumer.setClientRebalance(false);
        consumer.setPopInvisibleTime(invisibleTimeMs);
        consumer.setPopBatchNums(batchNums);
        consumer.setConsumeMessageBatchMaxSize(1);
    }

    /** Waits until the started consumer pops {@code topic} (its rebalance got a POP assignment from the broker). */
    public static void awaitPopAssignment(DefaultMQPushConsumer consumer, String topic) {
        MQClientInstance client = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory();
        Await.until(consumer.getInstanceName() + " popping " + topic, ASSIGNMENT_TIMEOUT, () -> {
            client.rebalanceImmediately();
            return consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getPopProcessQueueTable().keySet()
                .stream().anyMatch(queue -> queue.getTopic().equals(topic));
        });
    }

    /**
     * Shortens the consumer's POP retry delays (its fixed table 10 s, 30 s, 1 m ... for a failed message's next
     * invisible time) to {@code seconds} each, so a retry test takes seconds; the requests it sends are unchanged.
     */
    static void shortenRetryDelays(DefaultMQPushConsumer consumer, int seconds) throws ReflectiveOperationException {
        Field field = DefaultMQPushConsumerImpl.class.getDeclaredField("popDelayLevel");
        field.setAccessible(true);
        int[] delays = (int[]) field.get(consumer.getDefaultMQPushConsumerImpl());
        Arrays.fill(delays, seconds);
    }
}
