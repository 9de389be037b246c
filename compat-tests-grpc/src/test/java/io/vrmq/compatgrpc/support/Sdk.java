package io.vrmq.compatgrpc.support;

import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientConfigurationBuilder;
import org.apache.rocketmq.client.apis.SessionCredentialsProvider;
import org.apache.rocketmq.client.apis.ClientException;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.FilterExpressionType;
import org.apache.rocketmq.client.apis.consumer.MessageListener;
import org.apache.rocketmq.client.apis.consumer.PushConsumer;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageBuilder;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.TransactionChecker;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The official RocketMQ 5 Java SDK (rocketmq-client-java) pointed at the cluster's gRPC endpoint, in plain text
 * (the SDK's default is TLS) unless asked for TLS, optionally signing with ACL credentials; every client it builds
 * is closed after the test class. Test thread only.
 */
public final class Sdk {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** How long one receive waits on the broker (the endpoint's minimum long poll is 5 s). */
    public static final Duration AWAIT = Duration.ofSeconds(5);

    private final ClientServiceProvider provider = ClientServiceProvider.loadService();
    private final VrmqCluster cluster;
    private final boolean isSsl;
    private final SessionCredentialsProvider credentials;

    public Sdk(VrmqCluster cluster) {
        this(cluster, false, null);
    }

    /**
     * @param isSsl       TLS (the SDK's default, trusting any certificate) or plain text
     * @param credentials what the SDK signs each call with (ACL 2.0), or null for none
     */
    public Sdk(VrmqCluster cluster, boolean isSsl, SessionCredentialsProvider credentials) {
        this.cluster = cluster;
        this.isSsl = isSsl;
        this.credentials = credentials;
    }

    public MessageBuilder message(String topic) {
        return provider.newMessageBuilder().setTopic(topic);
    }

    public Producer producer(String... topics) throws ClientException {
        return cluster.closeLater(provider.newProducerBuilder().setClientConfiguration(configuration())
            .setTopics(topics).build());
    }

    public Producer transactionalProducer(TransactionChecker checker, String... topics) throws ClientException {
        return cluster.closeLater(provider.newProducerBuilder().setClientConfiguration(configuration())
            .setTopics(topics).setTransactionChecker(checker).build());
    }

    public SimpleConsumer simpleConsumer(String group, String topic) throws ClientException {
        return simpleConsumer(group, topic, "*");
    }

    /** A simple consumer of the messages of {@code topic} whose tag matches {@code tags} ("*", "A || B"). */
    public SimpleConsumer simpleConsumer(String group, String topic, String tags) throws ClientException {
        return cluster.closeLater(provider.newSimpleConsumerBuilder().setClientConfiguration(configuration())
            .setConsumerGroup(group).setAwaitDuration(AWAIT)
            .setSubscriptionExpressions(Map.of(topic, new FilterExpression(tags, FilterExpressionType.TAG))).build());
    }

    public PushConsumer pushConsumer(String group, String topic, MessageListener listener) throws ClientException {
        return cluster.closeLater(provider.newPushConsumerBuilder().setClientConfiguration(configuration())
            .setConsumerGroup(group)
            .setSubscriptionExpressions(Map.of(topic, new FilterExpression("*", FilterExpressionType.TAG)))
            .setMessageListener(listener).build());
    }

    /** Receives (acking each) until {@code count} messages came or {@code rounds} receives ended. */
    public static List<MessageView> receiveAndAck(SimpleConsumer consumer, int count, int rounds,
                                                  Duration invisible) throws ClientException {
        List<MessageView> received = new ArrayList<>();
        for (int round = 0; round < rounds && received.size() < count; round++) {
            for (MessageView message : consumer.receive(16, invisible)) {
                consumer.ack(message);
                received.add(message);
            }
        }
        return received;
    }

    public static String text(ByteBuffer body) {
        return StandardCharsets.UTF_8.decode(body.duplicate()).toString();
    }

    public static byte[] bytes(ByteBuffer body) {
        byte[] copy = new byte[body.remaining()];
        body.duplicate().get(copy);
        return copy;
    }

    private ClientConfiguration configuration() {
        ClientConfigurationBuilder builder = ClientConfiguration.newBuilder().setEndpoints(cluster.grpcEndpoints())
            .enableSsl(isSsl).setRequestTimeout(REQUEST_TIMEOUT);
        if (credentials != null) {
            builder.setCredentialProvider(credentials);
        }
        return builder.build();
    }
}
