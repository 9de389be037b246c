package io.vrmq.store;

import java.util.List;

/**
 * What {@link MessageStore#open} found and did.
 *
 * @param cleanShutdown        no abort file: only the last segment was verified
 * @param walkedFromOffset     commit-log offset the verification walk started at
 * @param commitLogEndOffset   where the last whole record ends (new appends go here)
 * @param truncatedTail        true when a torn tail was cut off after commitLogEndOffset
 * @param damaged              damaged ranges skipped (records after them kept their offsets)
 * @param consumeQueuesRebuilt a ConsumeQueue had missing or cut files and was rebuilt from the whole CommitLog
 * @param redispatchedRecords  records whose ConsumeQueue/index entries were (re)written during recovery
 */
public record RecoveryReport(boolean cleanShutdown, long walkedFromOffset, long commitLogEndOffset,
                             boolean truncatedTail, List<DamagedRange> damaged, boolean consumeQueuesRebuilt,
                             long redispatchedRecords) {
}
