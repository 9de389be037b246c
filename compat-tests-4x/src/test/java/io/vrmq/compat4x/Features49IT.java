package io.vrmq.compat4x;

import static io.vrmq.compat4x.support.Clients49.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat4x.support.Await;
import io.vrmq.compat4x.support.Clients49;
import io.vrmq.compat4x.support.Received;
import io.vrmq.compat4x.support.VrmqCluster;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.trace.TraceView;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The message features the 4.9.8 client has, against our broker: an SQL92 push consumer gets only the matching
 * messages, {@code producer.request} is answered through MessageUtil.createReplyMessage, and a traced message has
 * its Pub, SubBefore and SubAfter records in RMQ_SYS_TRACE_TOPIC.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class Features49IT {
    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(45);

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static Clients49 clients;
    private static DefaultMQAdminExt admin;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void startNameServerBrokerAdminAndProducer() throws Exception {
        cluster.start(dir, "broker-features49");
        clients = new Clients49(cluster);
        admin = clients.admin();
        producer = clients.producer(uniqueName("producer49f"), false);
    }

    @Test
    void anSqlPushConsumerGetsOnlyTheMatchingMessages() throws Exception {
        String topic = createTopic("Sql49");
        Received received = new Received();
        DefaultMQPushConsumer consumer = unstarted(uniqueName("sql49"), false, received);
        consumer.subscribe(topic, MessageSelector.bySql("n > 2 AND TAGS = 'A'"));
        consumer.start();
        for (int n = 0; n < 6; n++) {
            for (String tag : List.of("A", "B")) {
                Message message = new Message(topic, tag, (tag + n).getBytes(StandardCharsets.UTF_8));
                message.putUserProperty("n", Integer.toString(n));
                assertEquals(SendStatus.SEND_OK, producer.send(message).getSendStatus());
            }
        }
        received.awaitAll(List.of("A3", "A4", "A5"), RECEIVE_TIMEOUT);
        assertEquals(Set.of("A3", "A4", "A5"), new TreeSet<>(received.bodies()));
    }

    @Test
    void aRequestIsAnsweredWithCreateReplyMessage() throws Exception {
        String topic = createTopic("Request49");
        DefaultMQProducer replier = clients.producer(uniqueName("replier49"), false);
        DefaultMQPushConsumer responder = new DefaultMQPushConsumer(uniqueName("responder49"));
        responder.setNamesrvAddr(cluster.namesrvAddr());
        responder.setInstanceName(uniqueName("responder"));
        responder.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        responder.subscribe(topic, "*");
        responder.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt request : messages) {
                try {
                    replier.send(MessageUtil.createReplyMessage(request,
                        ("re:" + new String(request.getBody(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
                } catch (Exception e) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        cluster.closeLater(responder::shutdown);
        responder.start();

        Message reply = producer.request(new Message(topic, "ping".getBytes(StandardCharsets.UTF_8)), 20_000);
        assertEquals("re:ping", new String(reply.getBody(), StandardCharsets.UTF_8));
        assertEquals("reply", reply.getProperty(MessageConst.PROPERTY_MESSAGE_TYPE));
    }

    @Test
    void aTracedMessageHasItsPubAndSubRecords() throws Exception {
        String topic = createTopic("Trace49");
        DefaultMQProducer traced = new DefaultMQProducer(uniqueName("traced49"), true);
        traced.setNamesrvAddr(cluster.namesrvAddr());
        traced.setInstanceName(uniqueName("traced"));
        cluster.closeLater(traced::shutdown);
        traced.start();
        Received received = new Received();
        String group = uniqueName("trace49");
        DefaultMQPushConsumer consumer = unstarted(group, true, received);
        consumer.subscribe(topic, "*");
        consumer.start();

        SendResult sent = traced.send(new Message(topic, "T", "traced".getBytes(StandardCharsets.UTF_8)));
        received.awaitAll(List.of("traced"), RECEIVE_TIMEOUT);
        List<TraceView> views = new ArrayList<>();
        Await.until("Pub, SubBefore and SubAfter of " + sent.getMsgId(), RECEIVE_TIMEOUT, () -> {
            views.clear();
            for (MessageExt message : admin.queryMessage("RMQ_SYS_TRACE_TOPIC", sent.getMsgId(), 64, 0,
                Long.MAX_VALUE).getMessageList()) {
                views.addAll(TraceView.decodeFromTraceTransData(sent.getMsgId(), message));
            }
            Set<String> types = new TreeSet<>();
            views.forEach(view -> types.add(view.getMsgType()));
            return types.containsAll(Set.of("Pub", "SubBefore", "SubAfter"));
        });
        assertEquals(group, views.stream().filter(view -> view.getMsgType().equals("SubAfter")).findFirst()
            .orElseThrow().getGroupName());
    }

    private static DefaultMQPushConsumer unstarted(String group, boolean isTraced, Received received) {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group, isTraced);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(uniqueName("push"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.add(messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        cluster.closeLater(consumer::shutdown);
        return consumer;
    }

    private static String createTopic(String prefix) throws Exception {
        String topic = uniqueName(prefix);
        admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT,
            PERM_READ_WRITE));
        Await.until("a route for " + topic, ROUTE_TIMEOUT,
            () -> !admin.examineTopicRouteInfo(topic).getQueueDatas().isEmpty());
        return topic;
    }
}
