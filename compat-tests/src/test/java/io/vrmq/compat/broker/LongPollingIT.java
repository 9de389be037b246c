package io.vrmq.compat.broker;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.RawRequests;
import io.vrmq.compat.broker.support.TestBed;
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
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long polling at scale: 2,000 suspended PULL_MESSAGE requests (the official remoting client, suspend flag, a 60 s
 * suspend timeout) held by one broker cost it no threads, and one message sent to one queue wakes that queue's
 * pulls with SUCCESS long before their suspend timeout while the other queues' pulls stay held.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LongPollingIT {

    private static final int QUEUE_COUNT = 4;
    private static final int HELD_PULLS = 2_000;
    private static final long SUSPEND_TIMEOUT_MS = 60_000;
    /** The client's own deadline for a held pull; past the suspend timeout, as the push consumer's 30 s is past 15 s. */
    private static final long PULL_REQUEST_TIMEOUT_MS = 90_000;
    private static final long REQUEST_TIMEOUT_MS = 10_000;
    /** The whole broker JVM (event loops, store, GC, compiler, timers) stays under this while holding 2,000 pulls. */
    private static final int MAX_BROKER_THREADS = 100;
    /** Threads that may appear between 1,000 and 2,000 held pulls (lazily started pool threads), far below 1,000. */
    private static final int MAX_THREAD_GROWTH_PER_THOUSAND_PULLS = 10;
    /** A failure deadline for the woken pulls, well under the suspend timeout they would otherwise answer at. */
    private static final Duration WAKE_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;

    @BeforeAll
    static void startNameServerAndBroker() {
        bed = TestBed.start(resources, brokers, dir, "broker-long-poll");
    }

    @Test
    void twoThousandHeldPullsCostNoThreadsAndAMessageWakesTheHeldPullsOfItsQueue() throws Exception {
        VrmqBroker broker = bed.broker();
        DefaultMQProducer producer = bed.clients().producer(uniqueName("poll_producer"));
        String topic = uniqueName("LongPoll");
        String group = uniqueName("poll_group");
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            send(producer, topic, queueId, "first-" + queueId);
        }
        NettyRemotingClient client = bed.clients().remotingClient();
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            int queue = queueId;
            Await.until("message 0 of queue " + queue + " readable", STORE_TIMEOUT,
                () -> maxOffset(client, topic, queue) == 1);
        }
        RemotingCommand warmUp = client.invokeSync(broker.address(), RawRequests.pull(group, topic, 0, 0, 0),
            REQUEST_TIMEOUT_MS);
        assertEquals(ResponseCode.SUCCESS, warmUp.getCode(), "a pull of message 0: " + warmUp);
        int threadsBefore = broker.threadCount();

        List<CompletableFuture<RemotingCommand>> held = new ArrayList<>();
        holdPulls(client, topic, group, HELD_PULLS / 2, held);
        int threadsAtHalf = broker.threadCount();
        holdPulls(client, topic, group, HELD_PULLS / 2, held);
        int threadsAtAll = broker.threadCount();

        assertEquals(0, held.stream().filter(CompletableFuture::isDone).count(),
            "pulls answered although nothing arrived: " + held.stream().filter(CompletableFuture::isDone)
                .limit(3).map(CompletableFuture::join).toList());
        String threads = "broker threads: " + threadsBefore + " before, " + threadsAtHalf + " holding "
            + HELD_PULLS / 2 + ", " + threadsAtAll + " holding " + HELD_PULLS;
        System.out.println(threads);    // in the failsafe -output.txt, for the record
        assertTrue(threadsAtAll < MAX_BROKER_THREADS, threads);
        assertTrue(threadsAtAll - threadsAtHalf <= MAX_THREAD_GROWTH_PER_THOUSAND_PULLS, threads);

        send(producer, topic, 0, "wake-0");

        List<CompletableFuture<RemotingCommand>> queueZero = new ArrayList<>();
        for (int index = 0; index < held.size(); index += QUEUE_COUNT) {
            queueZero.add(held.get(index));
        }
        CompletableFuture.allOf(queueZero.toArray(CompletableFuture[]::new))
            .get(WAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        for (CompletableFuture<RemotingCommand> pull : queueZero) {
            RemotingCommand response = pull.join();
            assertEquals(ResponseCode.SUCCESS, response.getCode(), "a woken pull of queue 0: " + response);
            List<MessageExt> messages = MessageDecoder.decodesBatch(ByteBuffer.wrap(response.getBody()),
                true, true, false);
            assertEquals(List.of("wake-0"), messages.stream()
                .map(message -> new String(message.getBody(), StandardCharsets.UTF_8)).toList());
        }
        long otherQueuesAnswered = held.stream().filter(pull -> !queueZero.contains(pull))
            .filter(CompletableFuture::isDone).count();
        assertEquals(0, otherQueuesAnswered, "pulls of queues 1-3 answered by a message in queue 0");
    }

    /**
     * Sends {@code count} suspended pulls at offset 1 (the end) round-robin over the queues, then one synchronous
     * request on the same connection: its answer means the broker has read every pull before it.
     */
    private static void holdPulls(NettyRemotingClient client, String topic, String group, int count,
                                  List<CompletableFuture<RemotingCommand>> held) throws Exception {
        String address = bed.broker().address();
        for (int index = 0; index < count; index++) {
            RemotingCommand pull = RawRequests.pull(group, topic, held.size() % QUEUE_COUNT, 1, SUSPEND_TIMEOUT_MS);
            held.add(client.invoke(address, pull, PULL_REQUEST_TIMEOUT_MS));
        }
        assertEquals(1, maxOffset(client, topic, 0), "queue 0 before the wake-up message");
    }

    private static long maxOffset(NettyRemotingClient client, String topic, int queueId) throws Exception {
        RemotingCommand response = client.invokeSync(bed.broker().address(), RawRequests.maxOffset(topic, queueId),
            REQUEST_TIMEOUT_MS);
        assertEquals(ResponseCode.SUCCESS, response.getCode(), "GET_MAX_OFFSET: " + response);
        return Long.parseLong(response.getExtFields().get("offset"));
    }

    private static void send(DefaultMQProducer producer, String topic, int queueId, String body) throws Exception {
        SendResult result = producer.send(new Message(topic, "TagA", body.getBytes(StandardCharsets.UTF_8)),
            new MessageQueue(topic, bed.broker().brokerName(), queueId));
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
    }
}
