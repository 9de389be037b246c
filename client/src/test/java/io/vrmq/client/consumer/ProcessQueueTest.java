package io.vrmq.client.consumer;

import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessQueueTest {
    private final ProcessQueue queue = new ProcessQueue(new MessageQueue("T", "b", 0));

    @Test
    void theCommitOffsetWaitsForTheEarliestUnconsumedMessage() {
        ReceivedMessage m5 = message(5);
        ReceivedMessage m6 = message(6);
        ReceivedMessage m7 = message(7);
        queue.put(List.of(m5, m6, m7));

        assertEquals(5, queue.remove(List.of(m6)));
        assertEquals(5, queue.remove(List.of(m7)));
        assertEquals(8, queue.remove(List.of(m5)));
        assertEquals(0, queue.heldCount());
        assertEquals(0, queue.heldBytes());
    }

    @Test
    void orderlyTakesInOffsetOrderAndCommitsPastTheTakenBatch() {
        queue.put(List.of(message(9), message(8), message(10)));

        List<ReceivedMessage> taken = queue.takeOrdered(2);

        assertEquals(List.of(8L, 9L), taken.stream().map(ReceivedMessage::queueOffset).toList());
        assertEquals(10, queue.commitOrdered());
    }

    @Test
    void orderlyGivesBackARetriedBatchToBeTakenFirstAgain() {
        queue.put(List.of(message(1), message(2)));
        queue.takeOrdered(1);

        queue.giveBackOrdered(message -> message.withReconsumeTimes(message.reconsumeTimes() + 1));

        ReceivedMessage again = queue.takeOrdered(1).get(0);
        assertEquals(1, again.queueOffset());
        assertEquals(1, again.reconsumeTimes());
    }

    private static ReceivedMessage message(long offset) {
        InetSocketAddress host = new InetSocketAddress("127.0.0.1", 1);
        return new ReceivedMessage("T", 0, offset, offset * 100, 0, 0, new byte[] {1, 2}, Map.of(), 0, host, 0, host,
            0, 0, 0, 0, "id" + offset, "b");
    }
}
