package io.vrmq.broker.ha;

import io.vertx.core.buffer.Buffer;

/**
 * The replication wire format, byte for byte Apache RocketMQ's DefaultHAService (so an Apache slave can follow our
 * master and ours an Apache master). Big-endian.
 * <pre>
 *  master → slave   [8 commitLogOffset][4 bodySize][bodySize bytes of the CommitLog from that offset]
 *                   (bodySize 0 is a heartbeat)
 *  slave → master   [8 offset]   everything below it is in the slave's CommitLog (also its first message:
 *                                where to start; 0 for an empty slave)
 * </pre>
 */
final class HaFrames {
    static final int HEADER_BYTES = 8 + 4;
    static final int REPORT_BYTES = 8;

    private HaFrames() {
    }

    static Buffer report(long offset) {
        return Buffer.buffer(REPORT_BYTES).appendLong(offset);
    }

    static Buffer heartbeat(long offset) {
        return Buffer.buffer(HEADER_BYTES).appendLong(offset).appendInt(0);
    }
}
