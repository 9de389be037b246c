package io.vrmq.controller.raft;

/** This node is not the (ready) Raft leader, or stopped being it before the entry committed. */
public final class NotRaftLeaderException extends RuntimeException {
    public NotRaftLeaderException(String message) {
        super(message);
    }
}
