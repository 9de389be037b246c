package io.vrmq.broker.pop;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Server-side load balancing for QUERY_ASSIGNMENT: RocketMQ's AllocateMessageQueueAveragely ("AVG") and
 * AllocateMessageQueueAveragelyByCircle ("AVG_BY_CIRCLE"), and its allocate4Pop. Queues and client ids come sorted.
 * Stateless.
 */
final class QueueAllocation {
    static final String AVERAGELY = "AVG";
    static final String AVERAGELY_BY_CIRCLE = "AVG_BY_CIRCLE";

    private QueueAllocation() {
    }

    static boolean isKnownStrategy(String name) {
        return AVERAGELY.equals(name) || AVERAGELY_BY_CIRCLE.equals(name);
    }

    /** The queues {@code clientId} gets under the strategy; empty when it is not among {@code clientIds}. */
    static List<AssignedQueue> allocate(String strategy, String clientId, List<AssignedQueue> queues,
                                        List<String> clientIds) {
        int index = clientIds.indexOf(clientId);
        List<AssignedQueue> result = new ArrayList<>();
        if (index < 0 || queues.isEmpty()) {
            return result;
        }
        if (AVERAGELY_BY_CIRCLE.equals(strategy)) {
            for (int i = index; i < queues.size(); i += clientIds.size()) {
                result.add(queues.get(i));
            }
            return result;
        }
        int queueCount = queues.size();
        int clientCount = clientIds.size();
        int mod = queueCount % clientCount;
        int averageSize = queueCount <= clientCount ? 1
            : (mod > 0 && index < mod ? queueCount / clientCount + 1 : queueCount / clientCount);
        int startIndex = (mod > 0 && index < mod) ? index * averageSize : index * averageSize + mod;
        int range = Math.min(averageSize, queueCount - startIndex);
        for (int i = 0; i < range; i++) {
            result.add(queues.get((startIndex + i) % queueCount));
        }
        return result;
    }

    /**
     * RocketMQ's allocate4Pop: with popShareQueueNum 0 or less (or at least the clients but one) every client pops
     * every broker's whole topic (queue id -1); else each client gets its own share plus the shares of the next
     * popShareQueueNum clients, or with more clients than queues one queue each.
     */
    static Set<AssignedQueue> allocateForPop(String strategy, String clientId, List<AssignedQueue> queues,
                                             List<String> clientIds, int popShareQueueNum) {
        Set<AssignedQueue> result = new LinkedHashSet<>();
        if (popShareQueueNum <= 0 || popShareQueueNum >= clientIds.size() - 1) {
            for (AssignedQueue queue : queues) {
                result.add(new AssignedQueue(queue.topic(), queue.brokerName(), PopMessageRequest.ALL_QUEUES));
            }
            return result;
        }
        int index = clientIds.indexOf(clientId);
        if (clientIds.size() <= queues.size()) {
            result.addAll(allocate(strategy, clientId, queues, clientIds));
            for (int i = 1; i <= popShareQueueNum && index >= 0; i++) {
                String next = clientIds.get((index + i) % clientIds.size());
                result.addAll(allocate(strategy, next, queues, clientIds));
            }
        } else if (index >= 0) {
            result.add(queues.get(index % queues.size()));
        }
        return result;
    }

    /** A message queue as RocketMQ's MessageQueue orders them: topic, broker name, queue id. */
    record AssignedQueue(String topic, String brokerName, int queueId) implements Comparable<AssignedQueue> {
        @Override
        public int compareTo(AssignedQueue other) {
            int byTopic = topic.compareTo(other.topic);
            if (byTopic != 0) {
                return byTopic;
            }
            int byBroker = brokerName.compareTo(other.brokerName);
            return byBroker != 0 ? byBroker : Integer.compare(queueId, other.queueId);
        }
    }
}
