package io.vrmq.broker.pop;

import java.util.StringJoiner;

/**
 * Builds the per-queue strings of a POP_MESSAGE response (RocketMQ's ExtraInfoUtil.build*Info), from which the
 * remoting client makes each message's receipt. Entries are joined by ';', fields by a space; the marker is the
 * popped topic's (0 topic, 1/2 retry topic). Not thread-safe: one per response.
 */
final class PopHeaderInfo {
    private final StringJoiner startOffsets = new StringJoiner(";");
    private final StringJoiner messageOffsets = new StringJoiner(";");
    private final StringJoiner orderCounts = new StringJoiner(";");

    /** One queue that gave messages: where its checkpoint starts and the messages' offsets. */
    void addQueue(QueueKey queue, long startOffset, long[] offsets) {
        String marker = PopNames.marker(queue.topic());
        startOffsets.add(marker + " " + queue.queueId() + " " + startOffset);
        StringJoiner list = new StringJoiner(",");
        for (long offset : offsets) {
            list.add(Long.toString(offset));
        }
        messageOffsets.add(marker + " " + queue.queueId() + " " + list);
    }

    /**
     * An orderly queue's delivery counts: one {@code "<marker> qo<queueId>%<offset> <count>"} per message handed out
     * before, then {@code "<marker> <queueId> <min count>"} for older clients (0 when any message is new).
     */
    void addOrderCounts(OrderCheckpoint pop) {
        QueueKey queue = pop.queue();
        String marker = PopNames.marker(queue.topic());
        int minCount = Integer.MAX_VALUE;
        for (long offset : pop.offsets()) {
            int count = pop.consumedCount(offset);
            if (pop.consumedCounts().containsKey(offset)) {
                orderCounts.add(marker + " qo" + queue.queueId() + "%" + offset + " " + count);
            }
            minCount = Math.min(minCount, count);
        }
        orderCounts.add(marker + " " + queue.queueId() + " " + (minCount == Integer.MAX_VALUE ? 0 : minCount));
    }

    String startOffsetInfo() {
        return startOffsets.toString();
    }

    String msgOffsetInfo() {
        return messageOffsets.toString();
    }

    String orderCountInfo() {
        return orderCounts.toString();
    }
}
