package io.vrmq.store;

import java.nio.ByteBuffer;

/**
 * Decides whether a read returns a message: first from its ConsumeQueue entry's tagsCode, then (for filters that
 * need more than the tag, such as a property filter) from the stored record itself. Both must be cheap, pure and
 * safe on any reader thread.
 */
@FunctionalInterface
public interface TagFilter {
    TagFilter ALL = tagsCode -> true;

    boolean matches(long tagsCode);

    /**
     * The second stage, asked only for records whose tagsCode matched: {@code record} is the stored record (position
     * 0, limit = its size, read-only; read with absolute gets). The default keeps every such record.
     */
    default boolean matchesRecord(ByteBuffer record) {
        return true;
    }
}
