package io.vrmq.broker.pop;

import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

/**
 * A POP receipt as the clients carry it (RocketMQ's ExtraInfoUtil; the message property POP_CK and the {@code
 * extraInfo} of ACK and CHANGE_MESSAGE_INVISIBLETIME): space-separated
 * <pre>
 *  index  field            meaning
 *   0     ckStartOffset    first queue offset of the checkpoint the message belongs to
 *   1     popTime          when the pop ran (broker clock, ms)
 *   2     invisibleTime    ms the message stays invisible after popTime
 *   3     reviveQueueId    revive queue of the checkpoint; 999 = orderly (FIFO) pop, no checkpoint
 *   4     retryMarker      0 popped from the topic, 1 from its V1 retry topic, 2 from the V2 one
 *   5     brokerName
 *   6     queueId          queue of the topic (or retry topic) it was popped from
 *   7     queueOffset      the message's own queue offset; absent in the older 7-field form
 * </pre>
 * The gRPC receipt handle adds the commit-log offset as a ninth field. Immutable.
 */
public record ExtraInfo(long ckStartOffset, long popTime, long invisibleTime, int reviveQueueId, String retryMarker,
                        String brokerName, int queueId, long queueOffset) {
    private static final String SEPARATOR = " ";
    private static final int SHORT_FIELDS = 7;
    /** Stands for "no queue offset" in the 7-field form. */
    public static final long NO_QUEUE_OFFSET = -1;

    /**
     * Parses a receipt; a missing or malformed one is the client's error, answered SYSTEM_ERROR as RocketMQ's broker
     * answers the IllegalArgumentException its ExtraInfoUtil throws.
     */
    public static ExtraInfo parse(String extraInfo) {
        if (extraInfo == null) {
            throw malformed("null");
        }
        String[] fields = extraInfo.split(SEPARATOR);
        if (fields.length < SHORT_FIELDS) {
            throw malformed(extraInfo);
        }
        try {
            long queueOffset = fields.length > SHORT_FIELDS ? Long.parseLong(fields[7]) : NO_QUEUE_OFFSET;
            return new ExtraInfo(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]),
                Integer.parseInt(fields[3]), fields[4], fields[5], Integer.parseInt(fields[6]), queueOffset);
        } catch (NumberFormatException e) {
            throw malformed(extraInfo);
        }
    }

    /** The 8-field form the broker puts in POP_CK of a retry message it hands out. */
    public static String format(long ckStartOffset, long popTime, long invisibleTime, int reviveQueueId,
                                String poppedTopic, String brokerName, int queueId, long queueOffset) {
        return ckStartOffset + SEPARATOR + popTime + SEPARATOR + invisibleTime + SEPARATOR + reviveQueueId
            + SEPARATOR + PopNames.marker(poppedTopic) + SEPARATOR + brokerName + SEPARATOR + queueId + SEPARATOR
            + queueOffset;
    }

    public boolean isOrder() {
        return reviveQueueId == PopNames.ORDER_REVIVE_QUEUE;
    }

    /** When the message becomes visible again unless acked or changed. */
    public long reviveTimeMs() {
        return popTime + invisibleTime;
    }

    private static RemotingCommandException malformed(String extraInfo) {
        return new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "extraInfo is not a POP receipt "
            + "(ckStartOffset popTime invisibleTime reviveQid retry brokerName queueId [queueOffset]): " + extraInfo);
    }
}
