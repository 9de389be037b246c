package io.vrmq.broker.pop;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * What one pop (or peek) handed out: the records to send, RocketMQ's response header fields and the figures the
 * meters count. Immutable.
 *
 * @param reviveQid       the revive queue the receipts carry: the checkpoints' one, or 999 for an orderly pop
 * @param restNum         messages still in the queues it looked at after this pop
 * @param startOffsetInfo RocketMQ's {@code "<marker> <queueId> <startOffset>"} per queue, joined by ';'
 * @param msgOffsetInfo   RocketMQ's {@code "<marker> <queueId> <o1>,<o2>..."} per queue, joined by ';'
 * @param orderCountInfo  orderly pops only: delivery counts per message and per queue, else null
 */
record PopResult(long popTime, long invisibleTime, int reviveQid, long restNum, List<ByteBuffer> records,
                 String startOffsetInfo, String msgOffsetInfo, String orderCountInfo) {

    static PopResult empty(long popTime, long invisibleTime, int reviveQid, long restNum) {
        return new PopResult(popTime, invisibleTime, reviveQid, restNum, List.of(), "", "", null);
    }

    boolean isFound() {
        return !records.isEmpty();
    }

    int messageCount() {
        return records.size();
    }

    long bytes() {
        long bytes = 0;
        for (ByteBuffer record : records) {
            bytes += record.remaining();
        }
        return bytes;
    }
}
