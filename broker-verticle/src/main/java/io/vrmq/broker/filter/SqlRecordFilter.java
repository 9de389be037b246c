package io.vrmq.broker.filter;

import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.TagFilter;
import io.vrmq.store.format.RecordReader;

import java.nio.ByteBuffer;

/**
 * The store-side filter of an SQL92 subscription: every ConsumeQueue entry passes the tag stage (RocketMQ keeps no
 * bloom filter here either), then the stored record's properties, with the tag as property {@code TAGS}, go through
 * the selector. Immutable: any reader thread.
 */
final class SqlRecordFilter implements TagFilter {
    private final SqlSelector selector;

    SqlRecordFilter(SqlSelector selector) {
        this.selector = selector;
    }

    @Override
    public boolean matches(long tagsCode) {
        return true;
    }

    @Override
    public boolean matchesRecord(ByteBuffer record) {
        return selector.matches(MessageProperties.parse(RecordReader.properties(record, 0)));
    }

    @Override
    public String toString() {
        return "SQL92 " + selector;
    }
}
