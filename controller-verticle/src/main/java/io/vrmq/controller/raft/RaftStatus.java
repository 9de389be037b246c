package io.vrmq.controller.raft;

/**
 * A point-in-time view of this node's Raft state, for the admin API and CONTROLLER_GET_METADATA_INFO.
 *
 * @param leaderId            peer id of the leader this node knows, or null
 * @param isLeaderReady       leader and has applied every entry committed before its term
 * @param loadedSnapshotIndex the snapshot this node started from (-1 none)
 */
public record RaftStatus(String selfId, String leaderId, boolean isLeader, boolean isLeaderReady, long term,
                         long commitIndex, long appliedIndex, long snapshotIndex, long loadedSnapshotIndex) {
}
