package io.vrmq.compat.pop;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.Topics;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.PollingInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.PopMessageRequestHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * POP long polling at scale: 1,000 POP_MESSAGE requests held by one broker (built with the official 5.5.0 header
 * class, on one connection) cost it no threads; each message sent wakes one held pop, which gets it, and every other
 * pop is answered POLLING_TIMEOUT at the end of its poll time. One more pop than popPollingSize allows for its key is
 * answered POLLING_FULL at once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PopLongPollingIT {
    private static final int HELD_POPS = 1_000;
    /** popPollingSize for the test broker: RocketMQ's check lets a key hold one more than this. */
    private static final int POP_POLLING_SIZE = HELD_POPS - 1;
    private static final int WOKEN_BY_MESSAGES = 10;
    private static final long POLL_TIME_MS = 20_000;
    private static final long CLIENT_TIMEOUT_MS = POLL_TIME_MS + 30_000;
    private static final long REQUEST_TIMEOUT_MS = 10_000;
    private static final int MAX_BROKER_THREADS = 100;
    private static final int SEND_TIMEOUT_MS = 15_000;

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;

    @BeforeAll
    static void startNameServerAndBroker() {
        bed = TestBed.start(resources, brokers, dir, "broker-pop-poll", settings -> settings,
            Map.of("popPollingSize", POP_POLLING_SIZE));
    }

    @Test
    void aThousandHeldPopsCostNoThreadsAndEachIsAnsweredByAMessageOrAtItsPollTime() throws Exception {
        VrmqBroker broker = bed.broker();
        DefaultMQProducer producer = bed.clients().producer(uniqueName("pop_poll_producer"));
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        String topic = Topics.create(producer, uniqueName("PopPoll"));
        String group = uniqueName("pop_poll_group");
        NettyRemotingClient client = bed.clients().remotingClient();
        RemotingCommand warmUp = client.invokeSync(broker.address(), pop(topic, group, 0), REQUEST_TIMEOUT_MS);
        assertEquals(ResponseCode.POLLING_TIMEOUT, warmUp.getCode(), "a pop with nothing to pop: " + warmUp);
        int threadsBefore = broker.threadCount();

        List<CompletableFuture<RemotingCommand>> held = new ArrayList<>();
        for (int i = 0; i < HELD_POPS; i++) {
            held.add(client.invoke(broker.address(), pop(topic, group, POLL_TIME_MS), CLIENT_TIMEOUT_MS));
        }
        Await.until(HELD_POPS + " pops held (POLLING_INFO)", Duration.ofSeconds(30),
            () -> pollingNum(client, topic, group) == HELD_POPS);
        RemotingCommand full = client.invokeSync(broker.address(), pop(topic, group, POLL_TIME_MS),
            REQUEST_TIMEOUT_MS);
        int threadsHolding = broker.threadCount();

        assertEquals(ResponseCode.POLLING_FULL, full.getCode(), "pop number " + (HELD_POPS + 1) + ": " + full);
        assertEquals(0, held.stream().filter(CompletableFuture::isDone).count(), "pops answered with nothing sent");
        String threads = "broker threads: " + threadsBefore + " before, " + threadsHolding + " holding " + HELD_POPS
            + " pops";
        System.out.println(threads);
        assertTrue(threadsHolding < MAX_BROKER_THREADS, threads);

        Set<String> sent = new TreeSet<>();
        for (int i = 0; i < WOKEN_BY_MESSAGES; i++) {
            SendResult result = producer.send(new Message(topic, "TagA", ("wake-" + i)
                .getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
            sent.add("wake-" + i);
        }
        CompletableFuture.allOf(held.toArray(CompletableFuture[]::new))
            .get(CLIENT_TIMEOUT_MS, TimeUnit.MILLISECONDS);

        Set<String> popped = new TreeSet<>();
        int timedOut = 0;
        for (CompletableFuture<RemotingCommand> pop : held) {
            RemotingCommand response = pop.join();
            if (response.getCode() == ResponseCode.SUCCESS) {
                List<MessageExt> messages = MessageDecoder.decodesBatch(ByteBuffer.wrap(response.getBody()), true,
                    true, false);
                assertEquals(1, messages.size(), "a woken pop of at most one message");
                assertTrue(popped.add(new String(messages.get(0).getBody(), StandardCharsets.UTF_8)),
                    "a message handed out twice");
            } else {
                assertEquals(ResponseCode.POLLING_TIMEOUT, response.getCode(), "a held pop's answer: " + response);
                timedOut++;
            }
        }
        assertEquals(sent, popped, "each message woke a held pop");
        assertEquals(HELD_POPS - WOKEN_BY_MESSAGES, timedOut, "the others answered at the end of their poll time");
    }

    private static int pollingNum(NettyRemotingClient client, String topic, String group) throws Exception {
        PollingInfoRequestHeader header = new PollingInfoRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(-1);
        RemotingCommand response = client.invokeSync(bed.broker().address(),
            RemotingCommand.createRequestCommand(RequestCode.POLLING_INFO, header), REQUEST_TIMEOUT_MS);
        assertEquals(ResponseCode.SUCCESS, response.getCode(), "POLLING_INFO: " + response);
        return Integer.parseInt(response.getExtFields().get("pollingNum"));
    }

    /** A pop of at most one message of any queue, tag TagA, invisible 60 s, held up to {@code pollTimeMs}. */
    private static RemotingCommand pop(String topic, String group, long pollTimeMs) {
        PopMessageRequestHeader header = new PopMessageRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(-1);
        header.setMaxMsgNums(1);
        header.setInvisibleTime(60_000);
        header.setPollTime(pollTimeMs);
        header.setBornTime(System.currentTimeMillis());
        header.setInitMode(0);
        header.setExpType("TAG");
        header.setExp("TagA");
        header.setOrder(false);
        return RemotingCommand.createRequestCommand(RequestCode.POP_MESSAGE, header);
    }
}
