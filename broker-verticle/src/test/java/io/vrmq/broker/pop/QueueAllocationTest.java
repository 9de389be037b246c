package io.vrmq.broker.pop;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** RocketMQ's AVG and AVG_BY_CIRCLE strategies and allocate4Pop. */
class QueueAllocationTest {
    private static final List<String> CLIENTS = List.of("c1", "c2", "c3");

    @Test
    void averagelyGivesContiguousShares() {
        List<QueueAllocation.AssignedQueue> queues = queues(8);
        assertEquals(ids(0, 1, 2), idsOf(QueueAllocation.allocate("AVG", "c1", queues, CLIENTS)));
        assertEquals(ids(3, 4, 5), idsOf(QueueAllocation.allocate("AVG", "c2", queues, CLIENTS)));
        assertEquals(ids(6, 7), idsOf(QueueAllocation.allocate("AVG", "c3", queues, CLIENTS)));
        assertEquals(ids(), idsOf(QueueAllocation.allocate("AVG", "other", queues, CLIENTS)));
    }

    @Test
    void byCircleDealsQueuesInTurn() {
        assertEquals(ids(1, 4, 7), idsOf(QueueAllocation.allocate("AVG_BY_CIRCLE", "c2", queues(8), CLIENTS)));
    }

    @Test
    void popWithoutSharingGivesEveryClientTheWholeTopicPerBroker() {
        List<QueueAllocation.AssignedQueue> queues = new ArrayList<>(queues(4));
        queues.add(new QueueAllocation.AssignedQueue("T", "b2", 0));
        Set<QueueAllocation.AssignedQueue> all = QueueAllocation.allocateForPop("AVG", "c1", queues, CLIENTS, 0);
        assertEquals(Set.of(new QueueAllocation.AssignedQueue("T", "b", -1),
            new QueueAllocation.AssignedQueue("T", "b2", -1)), all);
    }

    @Test
    void popSharingAddsTheNextClientsShares() {
        List<String> clients = List.of("c1", "c2", "c3", "c4");
        Set<QueueAllocation.AssignedQueue> shared = QueueAllocation.allocateForPop("AVG", "c1", queues(8), clients,
            1);
        assertEquals(ids(0, 1, 2, 3), idsOf(new ArrayList<>(shared)));
    }

    private static List<QueueAllocation.AssignedQueue> queues(int count) {
        List<QueueAllocation.AssignedQueue> queues = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            queues.add(new QueueAllocation.AssignedQueue("T", "b", i));
        }
        return queues;
    }

    private static List<Integer> ids(Integer... ids) {
        return List.of(ids);
    }

    private static List<Integer> idsOf(List<QueueAllocation.AssignedQueue> queues) {
        return queues.stream().map(QueueAllocation.AssignedQueue::queueId).toList();
    }
}
