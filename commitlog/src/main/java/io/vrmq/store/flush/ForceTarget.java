package io.vrmq.store.flush;

/** What the flusher forces: the CommitLog in the store, something slower or blocking in a group-commit test. */
public interface ForceTarget {
    /** Offset past the last published byte. */
    long writtenOffset();

    /** Offset below which every byte is durable. */
    long flushedOffset();

    /** Forces everything published; returns the new flushed offset. Called on the flusher thread only. */
    long force();
}
