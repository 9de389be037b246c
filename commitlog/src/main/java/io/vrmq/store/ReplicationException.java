package io.vrmq.store;

/**
 * Replicated CommitLog bytes that this store cannot accept: the offset does not continue the replica, a record fails
 * its check, a chunk crosses a segment end, or the store is not in a state to replicate (closed, read-only, has its
 * own appends). The message names the offsets and what to do; nothing after the last whole good record is published,
 * so the caller reconnects and resends from {@link MessageStore#getCommitLogMaxOffset()}.
 *
 * <p>Unchecked so that a caller on a worker thread can let it fail its future; it is an expected outcome, so it
 * carries no stack trace.
 */
public final class ReplicationException extends RuntimeException {
    public ReplicationException(String message) {
        super(message, null, false, false);
    }
}
