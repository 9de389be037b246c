package io.vrmq.compat4x.support;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.MessageListener;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Starts official 4.9.8 clients against the cluster's NameServer, each under a unique instance name (the client
 * shares one MQClientInstance per ip@instanceName in a JVM), and shuts each down with the class through
 * {@link VrmqCluster#closeLater}. Consumers start from the first offset. Test thread only.
 */
public final class Clients49 {

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final long ADMIN_TIMEOUT_MS = 5_000;
    /** The push consumers' heartbeat interval (the client's default is 30 s): see where it is set. */
    private static final int CONSUMER_HEARTBEAT_INTERVAL_MS = 3_000;

    private final VrmqCluster cluster;

    public Clients49(VrmqCluster cluster) {
        this.cluster = cluster;
    }

    /** "<prefix>_<pid>_<n>": a valid topic or group name, unique in this run. */
    public static String uniqueName(String prefix) {
        return prefix + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
    }

    /**
     * A started producer; with {@code isVipChannelEnabled} it sends through the broker's fast channel at
     * listenPort - 2 (4.9.8's default is off, unless -Dcom.rocketmq.sendMessageWithVIPChannel=true).
     */
    public DefaultMQProducer producer(String group, boolean isVipChannelEnabled) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setVipChannelEnabled(isVipChannelEnabled);
        producer.setInstanceName(uniqueName("producer"));
        producer.start();
        cluster.closeLater(producer::shutdown);
        return producer;
    }

    /** A started CLUSTERING push consumer of {@code topic} with {@code expression} ("*", "TagA || TagB"). */
    public DefaultMQPushConsumer pushConsumer(String group, String topic, String expression, MessageListener listener)
        throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(uniqueName("push"));
        // The official client can lose the heartbeat that carries its new subscription version at its first
        // rebalance (it is skipped while the periodic heartbeat holds the lock: "lock heartBeat, but failed"), and
        // the broker, Apache's as ours, then answers every pull SUBSCRIPTION_NOT_LATEST until the next heartbeat:
        // 30 s by default, as long as a test's receive timeout. A short interval ends that stall within seconds.
        consumer.setHeartbeatBrokerInterval(CONSUMER_HEARTBEAT_INTERVAL_MS);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, expression);
        consumer.setMessageListener(listener);
        cluster.closeLater(consumer::shutdown);
        consumer.start();
        return consumer;
    }

    /** A started lite pull consumer without auto-commit: it reads only the queues a test assigns. */
    public DefaultLitePullConsumer litePullConsumer(String group) throws MQClientException {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(uniqueName("lite"));
        consumer.setAutoCommit(false);
        cluster.closeLater(consumer::shutdown);
        consumer.start();
        return consumer;
    }

    public DefaultMQAdminExt admin() throws MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(ADMIN_TIMEOUT_MS);
        admin.setNamesrvAddr(cluster.namesrvAddr());
        admin.setInstanceName(uniqueName("admin"));
        admin.setAdminExtGroup(uniqueName("admin_group"));
        cluster.closeLater(admin::shutdown);
        admin.start();
        return admin;
    }
}
