package io.vrmq.store.format;

/** What {@link RecordCheck} found at a position of a segment. */
public enum RecordState {
    /** A whole record: size, magic, physical offset, part lengths and body CRC all agree. */
    VALID,
    /** The filler that ends a segment; the next record starts the next segment. */
    BLANK,
    /** Zeroes: nothing was ever written here (the end of the log in the last segment). */
    END,
    /** Structure intact but the body CRC is wrong: the size can be trusted to step over it. */
    CRC_MISMATCH,
    /** Anything else: the size cannot be trusted; the next record must be found by scanning. */
    CORRUPT
}
