package io.vrmq.client;

import java.util.ArrayList;
import java.util.List;

/**
 * RocketMQ's AllocateMessageQueueAveragely: consecutive ranges, the first {@code queues % consumers} consumers taking
 * one queue more. 12 queues over 3 consumers: 0-3, 4-7, 8-11; over 5: 3, 3, 2, 2, 2. A consumer beyond the queue
 * count gets nothing (the official arithmetic gives it none). Stateless.
 */
public final class AllocateAveragely implements AllocateStrategy {
    @Override
    public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
                                       List<String> clientIds) {
        int index = clientIds.indexOf(clientId);
        if (index < 0 || queues.isEmpty()) {
            return List.of();
        }
        int queueCount = queues.size();
        int consumerCount = clientIds.size();
        int remainder = queueCount % consumerCount;
        int averageSize = queueCount <= consumerCount ? 1
            : (remainder > 0 && index < remainder ? queueCount / consumerCount + 1 : queueCount / consumerCount);
        int startIndex = remainder > 0 && index < remainder ? index * averageSize : index * averageSize + remainder;
        int range = Math.min(averageSize, queueCount - startIndex);
        List<MessageQueue> mine = new ArrayList<>();
        for (int step = 0; step < range; step++) {
            mine.add(queues.get((startIndex + step) % queueCount));
        }
        return mine;
    }
}
