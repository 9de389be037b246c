package io.vrmq.broker.transaction;

import java.util.List;

/**
 * What one scan of the half queue found: the actions to carry out in order, where the walk stopped, the first
 * message skipped as immune (-1 when none; the progress may not pass it), whether a per-run limit stopped the walk
 * early, and the op records read. Immutable once built.
 */
record CheckPlan(List<HalfAction> actions, long stopOffset, long firstImmuneOffset, boolean isLimitReached,
                 OpLog ops) {

    /** The half queue progress once the first {@code handled} actions are carried out. */
    long halfProgressAfter(int handled) {
        long progress = handled < actions.size() ? actions.get(handled).half().queueOffset() : stopOffset;
        return firstImmuneOffset >= 0 ? Math.min(firstImmuneOffset, progress) : progress;
    }

    /** Whether another run should start at once: a limit cut the walk and nothing held the progress back. */
    boolean hasMoreNow(int handled) {
        return isLimitReached && handled == actions.size() && firstImmuneOffset < 0;
    }
}
