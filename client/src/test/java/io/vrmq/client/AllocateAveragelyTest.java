package io.vrmq.client;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AllocateAveragelyTest {
    private final AllocateAveragely strategy = new AllocateAveragely();

    @Test
    void twelveQueuesOverThreeConsumersAreThreeRangesOfFour() {
        List<MessageQueue> queues = queues(12);
        List<String> consumers = List.of("a", "b", "c");

        assertEquals(queues.subList(0, 4), strategy.allocate("G", "a", queues, consumers));
        assertEquals(queues.subList(4, 8), strategy.allocate("G", "b", queues, consumers));
        assertEquals(queues.subList(8, 12), strategy.allocate("G", "c", queues, consumers));
    }

    @Test
    void theFirstConsumersTakeTheRemainder() {
        List<MessageQueue> queues = queues(12);
        List<String> consumers = List.of("a", "b", "c", "d", "e");

        List<Integer> sizes = consumers.stream()
            .map(consumer -> strategy.allocate("G", consumer, queues, consumers).size()).toList();

        assertEquals(List.of(3, 3, 2, 2, 2), sizes);
        assertCoversDisjointly(queues, consumers);
    }

    @Test
    void consumersBeyondTheQueueCountGetNothing() {
        List<MessageQueue> queues = queues(2);
        List<String> consumers = List.of("a", "b", "c");

        assertEquals(List.of(), strategy.allocate("G", "c", queues, consumers));
        assertCoversDisjointly(queues, consumers);
    }

    @Test
    void anUnknownConsumerGetsNothing() {
        assertEquals(List.of(), strategy.allocate("G", "z", queues(4), List.of("a")));
    }

    @Test
    void everySplitFromOneToThirteenConsumersCoversAllQueuesOnce() {
        for (int consumerCount = 1; consumerCount <= 13; consumerCount++) {
            List<String> consumers = IntStream.range(0, consumerCount).mapToObj(i -> "c" + (char) ('a' + i)).toList();
            assertCoversDisjointly(queues(12), consumers);
        }
    }

    private void assertCoversDisjointly(List<MessageQueue> queues, List<String> consumers) {
        List<MessageQueue> all = new ArrayList<>();
        for (String consumer : consumers) {
            all.addAll(strategy.allocate("G", consumer, queues, consumers));
        }
        Set<MessageQueue> distinct = new HashSet<>(all);
        assertEquals(all.size(), distinct.size(), "a queue given twice for " + consumers.size() + " consumers");
        assertTrue(distinct.containsAll(queues), "a queue left out for " + consumers.size() + " consumers");
    }

    private static List<MessageQueue> queues(int count) {
        return IntStream.range(0, count).mapToObj(id -> new MessageQueue("T", "broker-a", id)).toList();
    }
}
