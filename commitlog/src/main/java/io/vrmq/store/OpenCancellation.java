package io.vrmq.store;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Lets a long recovery end early: polls {@link StoreOptions#isOpenCancelled()} every {@link #RECORDS_BETWEEN_CHECKS}
 * records and throws {@link CancellationException} once it says so. Recovery only reads the CommitLog until its end is
 * known, and what it writes afterwards (ConsumeQueue and index entries) a crash could leave half done as well, so
 * stopping between two records leaves a store the next open recovers like one after a crash. Opening thread only.
 */
final class OpenCancellation {
    /** About a millisecond of recovery work between two polls: prompt, and the poll costs nothing measurable. */
    static final int RECORDS_BETWEEN_CHECKS = 4_096;

    private final BooleanSupplier isCancelled;
    private int recordsSinceCheck;

    OpenCancellation(BooleanSupplier isCancelled) {
        this.isCancelled = isCancelled;
    }

    /** One more record walked; every {@link #RECORDS_BETWEEN_CHECKS} records, {@link #check}. */
    void tick(String phase, long commitLogOffset) {
        if (++recordsSinceCheck >= RECORDS_BETWEEN_CHECKS) {
            recordsSinceCheck = 0;
            check(phase, commitLogOffset);
        }
    }

    /** Throws CancellationException when the open was cancelled. */
    void check(String phase, long commitLogOffset) {
        if (isCancelled.getAsBoolean()) {
            throw new CancellationException("store open cancelled while " + phase + ", at commit log offset "
                    + commitLogOffset);
        }
    }
}
