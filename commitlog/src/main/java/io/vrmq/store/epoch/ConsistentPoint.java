package io.vrmq.store.epoch;

import java.util.List;

/**
 * Where a replica's CommitLog stops agreeing with its master's (RocketMQ's {@code findConsistentPoint}): both epoch
 * lists get their newest entry closed at the side's max offset; walking the replica's epochs from newest to oldest,
 * the first epoch the master also has with the same start offset gives min(replica's end, master's end) of that
 * epoch. Everything below that offset was written by the same master in the same epoch on both sides. Pure function.
 */
public final class ConsistentPoint {
    /** No epoch in common: the replica cannot follow this master without manual repair. */
    public static final long NONE = -1;

    private ConsistentPoint() {
    }

    /**
     * @param local          the replica's entries, ascending by epoch (ends as stored; the newest is open)
     * @param localMaxOffset the replica's CommitLog max offset
     * @param master         the master's entries from its handshake, ascending by epoch
     * @param masterMaxOffset the master's max offset from its handshake
     * @return the offset to truncate the replica to, or {@link #NONE}
     */
    public static long find(List<EpochEntry> local, long localMaxOffset, List<EpochEntry> master,
                            long masterMaxOffset) {
        for (int i = local.size() - 1; i >= 0; i--) {
            EpochEntry mine = local.get(i);
            for (int j = 0; j < master.size(); j++) {
                EpochEntry theirs = master.get(j);
                if (theirs.epoch() == mine.epoch() && theirs.startOffset() == mine.startOffset()) {
                    long localEnd = endOf(local, i, localMaxOffset);
                    long masterEnd = endOf(master, j, masterMaxOffset);
                    return Math.min(localEnd, masterEnd);
                }
            }
        }
        return NONE;
    }

    /** The entry's end: the next entry's start, or for the newest the side's max offset (if not below its start). */
    private static long endOf(List<EpochEntry> entries, int index, long maxOffset) {
        EpochEntry entry = entries.get(index);
        if (index + 1 < entries.size()) {
            return entries.get(index + 1).startOffset();
        }
        return maxOffset >= entry.startOffset() ? maxOffset : entry.endOffset();
    }
}
