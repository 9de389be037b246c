package io.vrmq.store;

/** Which queue offset {@link MessageStore#getOffsetInQueueByTime} returns around a timestamp. */
public enum TimeBoundary {
    /** The smallest offset whose store time is at or after the timestamp (max offset when none is). */
    LOWER,
    /** The largest offset whose store time is at or before the timestamp (min offset when none is). */
    UPPER
}
