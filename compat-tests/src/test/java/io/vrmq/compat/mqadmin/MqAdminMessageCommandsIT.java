package io.vrmq.compat.mqadmin;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static io.vrmq.compat.mqadmin.MqAdmin.Output.columns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official mqadmin's message look-ups (queryMsgById with an offset id and with a unique client id,
 * queryMsgByKey, queryMsgByOffset) against our NameServer and broker, each run through {@code MQAdminStartup} with
 * {@code -n <our NameServer>}: the message they print is the one that was sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MqAdminMessageCommandsIT {

    private static final String BROKER_NAME = "broker-mqadmin-messages";
    private static final int MESSAGE_COUNT = 5;
    private static final String TAG = "TagQuery";
    private static final int QUEUE_ID = 1;
    /** The index that serves look-ups by key is built after the append, asynchronously (in RocketMQ as well). */
    private static final Duration INDEX_TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static String topic;
    private static final List<Sent> sent = new ArrayList<>();

    /** A message as sent, with what the broker answered. */
    private record Sent(String body, String key, SendResult result) {
    }

    @BeforeAll
    static void startBrokerAndSendMessagesWithKeys() throws Exception {
        bed = TestBed.start(resources, brokers, dir, BROKER_NAME);
        DefaultMQProducer producer = bed.clients().producer(uniqueName("mqadmin_query_producer"));
        topic = Topics.create(producer, uniqueName("MqadminQuery"));
        String label = uniqueName("query");
        for (int index = 0; index < MESSAGE_COUNT; index++) {
            String key = label + "-key-" + index;
            String body = label + "-body-" + index;
            SendResult result = producer.send(new Message(topic, TAG, key, body.getBytes(StandardCharsets.UTF_8)),
                new MessageQueue(topic, BROKER_NAME, QUEUE_ID));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            sent.add(new Sent(body, key, result));
        }
        DefaultMQAdminExt admin = bed.clients().admin();
        Sent last = sent.get(MESSAGE_COUNT - 1);
        Await.until("the key " + last.key() + " indexed", INDEX_TIMEOUT,
            () -> !admin.queryMessage(topic, last.key(), 1, 0, Long.MAX_VALUE).getMessageList().isEmpty());
    }

    @Test
    void queryMsgByIdWithTheOffsetIdPrintsTheMessageAndItsBody() {
        Sent message = sent.get(2);

        MqAdmin.Output output = mqadmin("queryMsgById", "-t", topic, "-i", message.result().getOffsetMsgId(),
            "-f", "UTF-8").assertSucceeded();

        assertPrintsMessage(output, message);
    }

    @Test
    void queryMsgByIdWithTheUniqueClientIdPrintsTheMessageAndItsBody() {
        Sent message = sent.get(3);

        MqAdmin.Output output = mqadmin("queryMsgById", "-t", topic, "-i", message.result().getMsgId(), "-f",
            "UTF-8").assertSucceeded();

        assertPrintsMessage(output, message);
    }

    @Test
    void queryMsgByKeyPrintsTheMessagesWithTheKey() {
        Sent message = sent.get(1);

        MqAdmin.Output output = mqadmin("queryMsgByKey", "-t", topic, "-k", message.key()).assertSucceeded();

        List<String> columns = columns(output.lineWith(message.result().getMsgId()));
        assertEquals(List.of(Integer.toString(QUEUE_ID), Long.toString(message.result().getQueueOffset())),
            columns.subList(1, 3), output.toString());
        assertTrue(columns.get(3).contains("@" + topic + "@K@" + message.key() + "@"), output.toString());
    }

    @Test
    void queryMsgByOffsetPrintsTheMessageAtThatQueueOffset() {
        Sent message = sent.get(4);

        MqAdmin.Output output = mqadmin("queryMsgByOffset", "-t", topic, "-b", BROKER_NAME, "-i",
            Integer.toString(QUEUE_ID), "-o", Long.toString(message.result().getQueueOffset()), "-f", "UTF-8")
            .assertSucceeded();

        assertPrintsMessage(output, message);
    }

    private static MqAdmin.Output mqadmin(String command, String... arguments) {
        return MqAdmin.run(bed.namesrvAddr(), command, arguments);
    }

    /** The tool's message print-out: "Name:   value" lines, then the consumer groups' track of it. */
    private static void assertPrintsMessage(MqAdmin.Output output, Sent message) {
        assertEquals(message.result().getOffsetMsgId(), field(output, "OffsetID:"), output.toString());
        assertEquals(topic, field(output, "Topic:"), output.toString());
        assertEquals("[" + TAG + "]", field(output, "Tags:"), output.toString());
        assertEquals("[" + message.key() + "]", field(output, "Keys:"), output.toString());
        assertEquals(Integer.toString(QUEUE_ID), field(output, "Queue ID:"), output.toString());
        assertEquals(Long.toString(message.result().getQueueOffset()), field(output, "Queue Offset:"),
            output.toString());
        assertEquals(message.body(), field(output, "Message Body:"), output.toString());
        output.lineWith("WARN: No Consumer");
    }

    private static String field(MqAdmin.Output output, String name) {
        return output.lines().stream()
            .filter(line -> line.startsWith(name))
            .map(line -> line.substring(name.length()).trim())
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + name + " line in\n" + output));
    }
}
