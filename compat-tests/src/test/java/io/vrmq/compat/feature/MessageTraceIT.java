package io.vrmq.compat.feature;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.vrmq.compat.broker.support.Received;
import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.mqadmin.MqAdmin;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.FreePorts;
import io.vrmq.compat.support.OfficialClients;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.trace.TraceView;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Message trace with the official 5.5.0 clients ({@code enableMsgTrace}) against our broker: for a message, the
 * producer's Pub and the consumer's SubBefore and SubAfter records (and EndTransaction for a transactional one) are
 * stored in the trace topic, found by the official admin's trace query and by {@code mqadmin queryMsgTraceById}, and
 * shown by our admin API's trace view. The broker creates the custom trace topic at start ({@code traceTopicEnable});
 * the default {@code RMQ_SYS_TRACE_TOPIC} is auto-created by the clients' trace producers.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MessageTraceIT {
    private static final String CUSTOM_TRACE_TOPIC = "VRMQ_TRACE_TOPIC";
    private static final String DEFAULT_TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";
    /** The client's trace dispatcher sends at the latest every 5 s; consumption and indexing add a little. */
    private static final Duration TRACE_TIMEOUT = Duration.ofSeconds(45);
    /**
     * The dispatcher sends a trace message once it holds traceMsgBatchNum records (default 10), else 5 s after its
     * last send. Each client here traces one message, so its records go at once: a producer's Pub (and a
     * transactional producer's EndTransaction) each alone, a consumer's SubBefore with its SubAfter in one trace
     * message, as they go with the default when both come within the 5 s.
     */
    private static final int PRODUCER_TRACE_BATCH = 1;
    private static final int CONSUMER_TRACE_BATCH = 2;
    private static final int SEND_TIMEOUT_MS = 15_000;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static DefaultMQAdminExt admin;
    private static int adminPort;

    @BeforeAll
    static void startBrokerWithTheTraceTopic() throws Exception {
        adminPort = FreePorts.any();
        bed = TestBed.start(resources, brokers, dir, "broker-trace", settings -> settings,
            Map.of("traceTopicEnable", true, "msgTraceTopicName", CUSTOM_TRACE_TOPIC, "adminPort", adminPort));
        admin = bed.clients().admin();
    }

    @Test
    void pubSubBeforeAndSubAfterOfAMessageAreFoundInTheCustomTraceTopic() throws Exception {
        traceOneMessage(CUSTOM_TRACE_TOPIC, uniqueName("key"));
    }

    /** A key this long makes the trace batch larger than 4 KiB: the client's trace producer compresses it (zlib). */
    @Test
    void aCompressedTraceBatchIsFoundToo() throws Exception {
        traceOneMessage(CUSTOM_TRACE_TOPIC, uniqueName("key") + "k".repeat(5_000));
    }

    @Test
    void theDefaultTraceTopicIsCreatedByTheClientsAndWorksTheSame() throws Exception {
        traceOneMessage(DEFAULT_TRACE_TOPIC, uniqueName("key"));
    }

    @Test
    void aTransactionalMessageHasItsEndTransactionRecord() throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer(null, uniqueName("trace_tx_producer"), null, true,
            CUSTOM_TRACE_TOPIC);
        producer.setNamesrvAddr(bed.namesrvAddr());
        producer.setInstanceName(OfficialClients.uniqueInstanceName("trace-tx"));
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        producer.setTraceMsgBatchNum(PRODUCER_TRACE_BATCH);
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt message) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        producer.start();
        resources.closeClientLater(producer::shutdown);
        String topic = Topics.create(producer, uniqueName("TraceTx"));
        SendResult sent = producer.sendMessageInTransaction(new Message(topic, "TagT",
            "tx".getBytes(StandardCharsets.UTF_8)), null);
        assertEquals(SendStatus.SEND_OK, sent.getSendStatus(), sent.toString());

        List<TraceView> views = awaitTraceTypes(CUSTOM_TRACE_TOPIC, sent.getMsgId(), Set.of("Pub", "EndTransaction"));
        TraceView end = views.stream().filter(view -> view.getMsgType().equals("EndTransaction")).findFirst()
            .orElseThrow();
        assertEquals(producer.getProducerGroup(), end.getGroupName());
    }

    private void traceOneMessage(String traceTopic, String key) throws Exception {
        String producerGroup = uniqueName("trace_producer");
        DefaultMQProducer producer = new DefaultMQProducer(producerGroup, true, traceTopic);
        producer.setNamesrvAddr(bed.namesrvAddr());
        producer.setInstanceName(OfficialClients.uniqueInstanceName("trace-producer"));
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        producer.setTraceMsgBatchNum(PRODUCER_TRACE_BATCH);
        producer.start();
        resources.closeClientLater(producer::shutdown);
        String topic = Topics.create(producer, uniqueName("Traced"));

        String consumerGroup = uniqueName("trace_consumer");
        Received received = new Received();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(consumerGroup, true, traceTopic);
        consumer.setNamesrvAddr(bed.namesrvAddr());
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("trace-consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setTraceMsgBatchNum(CONSUMER_TRACE_BATCH);
        consumer.subscribe(topic, "TagT");
        consumer.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.add(consumerGroup, messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        resources.closeClientLater(consumer::shutdown);

        Message message = new Message(topic, "TagT", key, "traced".getBytes(StandardCharsets.UTF_8));
        SendResult sent = producer.send(message);
        assertEquals(SendStatus.SEND_OK, sent.getSendStatus(), sent.toString());
        received.awaitAll(List.of("traced"), TRACE_TIMEOUT);
        String msgId = sent.getMsgId();

        List<TraceView> views = awaitTraceTypes(traceTopic, msgId, Set.of("Pub", "SubBefore", "SubAfter"));
        TraceView pub = views.stream().filter(view -> view.getMsgType().equals("Pub")).findFirst().orElseThrow();
        assertEquals(producerGroup, pub.getGroupName());
        assertEquals(topic, pub.getTopic());
        TraceView subAfter = views.stream().filter(view -> view.getMsgType().equals("SubAfter")).findFirst()
            .orElseThrow();
        assertEquals(consumerGroup, subAfter.getGroupName());
        assertEquals("success", subAfter.getStatus());

        MqAdmin.Output output = MqAdmin.run(bed.namesrvAddr(), "queryMsgTraceById", "-i", msgId, "-t", traceTopic);
        assertTrue(output.stdout().contains("Pub") && output.stdout().contains(producerGroup), output.toString());
        assertTrue(output.stdout().contains("Sub") && output.stdout().contains(consumerGroup), output.toString());

        String text = adminTrace(msgId, traceTopic);
        JSONObject view = JSON.parseObject(text);
        assertEquals(producerGroup, view.getJSONArray("published").getJSONObject(0).getString("group"), text);
        JSONObject consumed = view.getJSONArray("consumed").getJSONObject(0);
        assertEquals(consumerGroup, consumed.getString("group"), text);
        assertEquals(true, consumed.getBoolean("finished"), text);
        assertEquals(true, consumed.getBoolean("success"), text);
        assertEquals(topic, view.getJSONObject("stored").getString("topic"), text);
    }

    /** Waits until the trace topic holds records of all {@code types} for the message; returns them all. */
    private static List<TraceView> awaitTraceTypes(String traceTopic, String msgId, Set<String> types) {
        List<TraceView> views = new ArrayList<>();
        Await.until("trace records " + types + " of " + msgId + " in " + traceTopic, TRACE_TIMEOUT, () -> {
            views.clear();
            for (MessageExt traceMessage : admin.queryMessage(traceTopic, msgId, 64, 0, Long.MAX_VALUE)
                .getMessageList()) {
                views.addAll(TraceView.decodeFromTraceTransData(msgId, traceMessage));
            }
            Set<String> seen = new TreeSet<>();
            views.forEach(view -> seen.add(view.getMsgType()));
            return seen.containsAll(types);
        });
        return views;
    }

    private static String adminTrace(String msgId, String traceTopic) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/api/v1/messages/"
            + msgId + "/trace?traceTopic=" + traceTopic)).timeout(Duration.ofSeconds(10)).GET().build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }
}
