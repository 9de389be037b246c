package io.vrmq.client;

/** Where a group with no committed offset for a queue starts. */
public enum ConsumeFromWhere {
    CONSUME_FROM_LAST_OFFSET,
    CONSUME_FROM_FIRST_OFFSET,
    CONSUME_FROM_TIMESTAMP
}
