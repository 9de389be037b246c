package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.buffer.Buffer;
import io.vrmq.store.epoch.EpochEntry;

import java.util.List;

/**
 * The controller-mode replication wire format, byte for byte RocketMQ 5.5.0's AutoSwitchHAService (not
 * interoperable with the classic format of {@code HaFrames}). All integers big-endian. Every frame starts with the
 * sender's connection state: {@link #HANDSHAKE} 1 or {@link #TRANSFER} 2 (HAConnectionState ordinals: READY 0,
 * HANDSHAKE 1, TRANSFER 2, SUSPEND 3, SHUTDOWN 4).
 * <pre>
 *  slave → master
 *   HANDSHAKE (16 B)  0  4  state = 1
 *                     4  2  isSyncFromLastFile (0/1)
 *                     6  2  isAsyncLearner (0/1)
 *                     8  8  slaveBrokerId (controller id)
 *   TRANSFER  (12 B)  0  4  state = 2
 *                     4  8  slaveMaxOffset        everything below it is in the slave's CommitLog (ack and report)
 *
 *  master → slave
 *   HANDSHAKE header (20 B)  0  4  state = 1
 *                            4  4  bodySize = 12 × n
 *                            8  8  masterMaxPhyOffset
 *                           16  4  lastEpoch
 *             body     n × { 4 epoch | 8 startOffset }           every entry of the master's epoch file, ascending
 *   TRANSFER header (36 B)   0  4  state = 2
 *                            4  4  bodySize                       0 = heartbeat
 *                            8  8  offset                         CommitLog offset of body[0]
 *                           16  4  epoch                          of the entry the body belongs to
 *                           20  8  epochStartOffset
 *                           28  8  confirmOffset                  the master's confirm offset
 *             body     bodySize raw CommitLog bytes (may cut records; never crosses a segment end)
 * </pre>
 */
final class AutoSwitchFrames {
    static final int HANDSHAKE = 1;
    static final int TRANSFER = 2;

    static final int STATE_AT = 0;
    static final int STATE_BYTES = 4;

    static final int SLAVE_SYNC_FROM_LAST_FILE_AT = STATE_AT + STATE_BYTES;
    static final int SLAVE_ASYNC_LEARNER_AT = SLAVE_SYNC_FROM_LAST_FILE_AT + 2;
    static final int SLAVE_BROKER_ID_AT = SLAVE_ASYNC_LEARNER_AT + 2;
    static final int SLAVE_HANDSHAKE_BYTES = SLAVE_BROKER_ID_AT + 8;
    static final int SLAVE_MAX_OFFSET_AT = STATE_AT + STATE_BYTES;
    static final int SLAVE_TRANSFER_BYTES = SLAVE_MAX_OFFSET_AT + 8;

    static final int BODY_SIZE_AT = STATE_AT + STATE_BYTES;
    static final int MASTER_OFFSET_AT = BODY_SIZE_AT + 4;
    static final int MASTER_LAST_EPOCH_AT = MASTER_OFFSET_AT + 8;
    static final int MASTER_HANDSHAKE_HEADER_BYTES = MASTER_LAST_EPOCH_AT + 4;
    static final int TRANSFER_EPOCH_AT = MASTER_OFFSET_AT + 8;
    static final int TRANSFER_EPOCH_START_AT = TRANSFER_EPOCH_AT + 4;
    static final int TRANSFER_CONFIRM_OFFSET_AT = TRANSFER_EPOCH_START_AT + 8;
    static final int MASTER_TRANSFER_HEADER_BYTES = TRANSFER_CONFIRM_OFFSET_AT + 8;
    static final int EPOCH_ENTRY_BYTES = 4 + 8;

    private AutoSwitchFrames() {
    }

    static Buffer slaveHandshake(boolean syncFromLastFile, boolean asyncLearner, long slaveBrokerId) {
        return Buffer.buffer(SLAVE_HANDSHAKE_BYTES).appendInt(HANDSHAKE).appendShort(flag(syncFromLastFile))
            .appendShort(flag(asyncLearner)).appendLong(slaveBrokerId);
    }

    static Buffer slaveTransfer(long slaveMaxOffset) {
        return Buffer.buffer(SLAVE_TRANSFER_BYTES).appendInt(TRANSFER).appendLong(slaveMaxOffset);
    }

    static Buffer masterHandshake(long masterMaxOffset, int lastEpoch, List<EpochEntry> entries) {
        Buffer frame = Buffer.buffer(MASTER_HANDSHAKE_HEADER_BYTES + EPOCH_ENTRY_BYTES * entries.size())
            .appendInt(HANDSHAKE).appendInt(EPOCH_ENTRY_BYTES * entries.size()).appendLong(masterMaxOffset)
            .appendInt(lastEpoch);
        for (EpochEntry entry : entries) {
            frame.appendInt(entry.epoch()).appendLong(entry.startOffset());
        }
        return frame;
    }

    /** Appends a TRANSFER header to {@code out}; the caller appends {@code bodySize} bytes after it. */
    static Buffer appendTransferHeader(Buffer out, int bodySize, long offset, int epoch, long epochStartOffset,
                                       long confirmOffset) {
        return out.appendInt(TRANSFER).appendInt(bodySize).appendLong(offset).appendInt(epoch)
            .appendLong(epochStartOffset).appendLong(confirmOffset);
    }

    private static short flag(boolean value) {
        return (short) (value ? 1 : 0);
    }
}
