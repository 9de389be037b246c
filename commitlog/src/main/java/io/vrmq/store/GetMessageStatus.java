package io.vrmq.store;

/** Outcome of {@link MessageStore#getMessages}; RocketMQ's GetMessageStatus names and meanings. */
public enum GetMessageStatus {
    FOUND,
    /** Entries were scanned but the tag filter matched none of them; continue at nextBeginOffset. */
    NO_MATCHED_MESSAGE,
    /** The queue exists but has never held a message. */
    NO_MESSAGE_IN_QUEUE,
    /** Below the queue's min offset (retention removed it); nextBeginOffset = min. */
    OFFSET_TOO_SMALL,
    /** Exactly the max offset: nothing new yet (a long-poll waits here). */
    OFFSET_OVERFLOW_ONE,
    /** Beyond the max offset; nextBeginOffset = max. */
    OFFSET_OVERFLOW_BADLY,
    /** Entries exist but their records are gone (deleted or damaged); continue at nextBeginOffset. */
    OFFSET_FOUND_NULL,
    /** No such topic-queue. */
    NO_MATCHED_LOGIC_QUEUE
}
