package io.vrmq.compat.broker.support;

import java.util.function.Consumer;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.OfficialClients;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.MessageListener;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Starts official 5.5.0 clients against one NameServer, each under a unique instance name, and shuts each down with
 * the scope that started it (through {@link CompatResources}). Consumers start from the first offset unless the
 * caller's {@code configure} says otherwise. Test thread only.
 */
public final class BrokerClients {
    /** The consumers' heartbeat interval (the client's default is 30 s): see {@link #unstartedPushConsumer}. */
    static final int CONSUMER_HEARTBEAT_INTERVAL_MS = 3_000;

    private final CompatResources resources;
    private final String namesrvAddr;

    public BrokerClients(CompatResources resources, String namesrvAddr) {
        this.resources = resources;
        this.namesrvAddr = namesrvAddr;
    }

    public String namesrvAddr() {
        return namesrvAddr;
    }

    public DefaultMQProducer producer(String group) throws MQClientException {
        DefaultMQProducer producer = OfficialClients.producer(namesrvAddr, group);
        resources.closeClientLater(producer::shutdown);
        return producer;
    }

    /**
     * A started producer that polls the NameServers for routes every second instead of every 30 s (set before
     * start: the client reads it once), so that it moves to a newly elected master within a second.
     */
    public DefaultMQProducer fastRoutingProducer(String group) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(OfficialClients.uniqueInstanceName("producer"));
        producer.setPollNameServerInterval(1_000);
        producer.start();
        resources.closeClientLater(producer::shutdown);
        return producer;
    }

    /** A started push consumer of {@code topic} with {@code expression} ("*", "TagA || TagB"). */
    public DefaultMQPushConsumer pushConsumer(String group, String topic, String expression, MessageListener listener,
                                              Consumer<DefaultMQPushConsumer> configure) throws MQClientException {
        DefaultMQPushConsumer consumer = unstartedPushConsumer(group, topic, expression, listener, configure);
        consumer.start();
        return consumer;
    }

    /** Like {@link #pushConsumer} but not started; shut down with the scope all the same. */
    public DefaultMQPushConsumer unstartedPushConsumer(String group, String topic, String expression,
                                                       MessageListener listener,
                                                       Consumer<DefaultMQPushConsumer> configure)
        throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("push"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // The official client can lose the heartbeat that carries its new subscription version at its first
        // rebalance (it is skipped while the periodic heartbeat holds the lock: "lock heartBeat, but failed"), and
        // the broker, Apache's as ours, then answers every pull SUBSCRIPTION_NOT_LATEST until the next heartbeat:
        // 30 s by default, as long as a test's receive timeout. A short interval ends that stall within seconds.
        consumer.setHeartbeatBrokerInterval(CONSUMER_HEARTBEAT_INTERVAL_MS);
        consumer.subscribe(topic, expression);
        consumer.setMessageListener(listener);
        configure.accept(consumer);
        resources.closeClientLater(consumer::shutdown);
        return consumer;
    }

    /** A started DefaultMQPullConsumer: explicit queue and offset per pull, no rebalance, no stored offsets. */
    @SuppressWarnings("deprecation")
    public DefaultMQPullConsumer pullConsumer(String group) throws MQClientException {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("pull"));
        consumer.start();
        resources.closeClientLater(consumer::shutdown);
        return consumer;
    }

    /** A started lite pull consumer; {@code configure} runs before start (auto-commit, batch size, ...). */
    public DefaultLitePullConsumer litePullConsumer(String group, Consumer<DefaultLitePullConsumer> configure)
        throws MQClientException {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("lite"));
        consumer.setHeartbeatBrokerInterval(CONSUMER_HEARTBEAT_INTERVAL_MS);   // see unstartedPushConsumer
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        configure.accept(consumer);
        consumer.start();
        resources.closeClientLater(consumer::shutdown);
        return consumer;
    }

    public DefaultMQAdminExt admin() throws MQClientException {
        DefaultMQAdminExt admin = OfficialClients.admin(namesrvAddr);
        resources.closeClientLater(admin::shutdown);
        return admin;
    }

    /** The official transport alone, for requests built by hand. */
    public NettyRemotingClient remotingClient() {
        NettyRemotingClient client = OfficialClients.remotingClient();
        resources.closeClientLater(client::shutdown);
        return client;
    }
}
