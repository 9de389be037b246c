package io.vrmq.loadcommon;

/**
 * The header every load tool writes at the start of a message body, then filler up to the body size: what tells this
 * run's messages apart and gives each its end-to-end latency ({@link DeliveryTracker}). Constants only.
 */
public final class BodyHeader {

    /*  offset  size  field
     *   0       8    runId      random per run (0 for a warm-up): bodies of other runs on the same topic are told apart
     *   8       8    seq        0 .. count - 1: the index into DeliveryTracker's tables
     *  16       8    sentNanos  System.nanoTime() just before send (producer and consumer share this JVM)    */
    public static final int RUN_ID_OFFSET = 0, RUN_ID_BYTES = 8;
    public static final int SEQ_OFFSET = RUN_ID_OFFSET + RUN_ID_BYTES, SEQ_BYTES = 8;
    public static final int SENT_NANOS_OFFSET = SEQ_OFFSET + SEQ_BYTES, SENT_NANOS_BYTES = 8;
    public static final int HEADER_BYTES = SENT_NANOS_OFFSET + SENT_NANOS_BYTES;

    private BodyHeader() {
    }
}
