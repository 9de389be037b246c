package io.vrmq.compatgrpc;

import io.vrmq.compatgrpc.support.AdminApi;
import io.vrmq.compatgrpc.support.Await;
import io.vrmq.compatgrpc.support.Sdk;
import io.vrmq.compatgrpc.support.VrmqCluster;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.SendReceipt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One store for both protocols: what the official gRPC SDK sends, the official remoting client (5.5.0) consumes,
 * and the other way round, with bodies (a compressed one among them: the remoting client compresses bodies over
 * 4 KiB), tags, keys, user properties and message ids intact.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcInteropIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();
    private static Sdk sdk;
    private static AdminApi admin;

    @BeforeAll
    static void startCluster(@TempDir Path dir) {
        cluster.start(dir, "interop-broker");
        sdk = new Sdk(cluster);
        admin = new AdminApi(cluster.adminUrl());
    }

    @Test
    void grpcProducerToRemotingConsumer() throws Exception {
        admin.createTopic("InteropToRemoting", "NORMAL");
        Map<String, MessageExt> received = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("InteropRemotingGroup");
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("InteropToRemoting", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(message -> received.put(message.getMsgId(), message));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.closeLater(consumer::shutdown);
        Producer producer = sdk.producer("InteropToRemoting");
        String body = "from gRPC ✓ ünïcode";
        SendReceipt receipt = producer.send(sdk.message("InteropToRemoting").setTag("TagG").setKeys("key-1", "key-2")
            .addProperty("origin", "grpc").setBody(body.getBytes(StandardCharsets.UTF_8)).build());
        String messageId = receipt.getMessageId().toString();
        Await.until("the remoting consumer gets " + messageId, WAIT, () -> received.containsKey(messageId));
        MessageExt message = received.get(messageId);
        assertEquals(body, new String(message.getBody(), StandardCharsets.UTF_8));
        assertEquals("TagG", message.getTags());
        assertEquals("key-1 key-2", message.getKeys());
        assertEquals("grpc", message.getUserProperty("origin"));
    }

    @Test
    void remotingProducerToGrpcConsumer() throws Exception {
        admin.createTopic("InteropToGrpc", "NORMAL");
        SimpleConsumer consumer = sdk.simpleConsumer("InteropGrpcGroup", "InteropToGrpc");
        DefaultMQProducer producer = new DefaultMQProducer("InteropRemotingProducer");
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.start();
        cluster.closeLater(producer::shutdown);
        Await.until("the remoting producer sees the topic's route", WAIT, () -> !producer
            .fetchPublishMessageQueues("InteropToGrpc").isEmpty());
        byte[] large = ("compressible " + "x".repeat(64 * 1024)).getBytes(StandardCharsets.UTF_8);
        Message small = new Message("InteropToGrpc", "TagR", "key-r", "from remoting ✓".getBytes(
            StandardCharsets.UTF_8));
        small.putUserProperty("origin", "remoting");
        Message compressed = new Message("InteropToGrpc", "TagBig", large);
        SendResult smallResult = producer.send(small);
        SendResult largeResult = producer.send(compressed);
        assertEquals(SendStatus.SEND_OK, smallResult.getSendStatus());
        assertEquals(SendStatus.SEND_OK, largeResult.getSendStatus());
        List<MessageView> received = Sdk.receiveAndAck(consumer, 2, 10, Duration.ofSeconds(30));
        assertEquals(2, received.size(), "received " + received);
        MessageView first = received.stream().filter(m -> m.getTag().orElse("").equals("TagR")).findFirst()
            .orElseThrow();
        assertEquals(smallResult.getMsgId(), first.getMessageId().toString());
        assertEquals("from remoting ✓", Sdk.text(first.getBody()));
        assertEquals(List.of("key-r"), List.copyOf(first.getKeys()));
        assertEquals("remoting", first.getProperties().get("origin"));
        MessageView second = received.stream().filter(m -> m.getTag().orElse("").equals("TagBig")).findFirst()
            .orElseThrow();
        assertEquals(largeResult.getMsgId(), second.getMessageId().toString());
        assertArrayEquals(large, Sdk.bytes(second.getBody()), "the compressed body arrives as it was sent");
    }
}
