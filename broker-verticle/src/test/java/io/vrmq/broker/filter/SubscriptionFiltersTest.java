package io.vrmq.broker.filter;

import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.TagFilter;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Turning subscriptions into store filters, and compiling each expression once. */
class SubscriptionFiltersTest {
    private final SubscriptionFilters filters = new SubscriptionFilters(new FilterConfig(true, 2));

    @Test
    void anExpressionCompilesOnceWhileItStaysInTheCache() {
        SqlSelector first = filters.selector("SQL92", "a > 1");
        assertSame(first, filters.selector("SQL92", "a > 1"));
        filters.selector("SQL92", "b > 1");
        filters.selector("SQL92", "c > 1");   // capacity 2: "a > 1" was the least recently used
        assertNotSame(first, filters.selector("SQL92", "a > 1"));
    }

    @Test
    void aRefusedExpressionKeepsBeingRefusedWithItsReason() {
        FilterParseException first = assertThrows(FilterParseException.class,
            () -> filters.selector("SQL92", "a >"));
        FilterParseException again = assertThrows(FilterParseException.class,
            () -> filters.selector("SQL92", "a >"));
        assertEquals(first.getMessage(), again.getMessage());
    }

    @Test
    void anUnknownExpressionTypeDoesNotParse() {
        assertThrows(FilterParseException.class, () -> filters.storeFilter("T", "CLASS", "a = 1"));
    }

    @Test
    void tagSubscriptionsFilterByTagHash() {
        TagFilter filter = filters.storeFilter(SubscriptionData.ofTags("T", "TagA || TagB", 1));
        assertTrue(filter.matches("TagA".hashCode()));
        assertFalse(filter.matches("TagC".hashCode()));
        assertSame(TagFilter.ALL, filters.storeFilter("T", null, "*"));
        assertSame(TagFilter.ALL, filters.storeFilter("T", "TAG", ""));
    }

    @Test
    void sqlSubscriptionsPassEveryTagAndFilterTheRecord() {
        SubscriptionData sql = new SubscriptionData("T", "TAGS = 'TagA'", Set.of(), Set.of(), 1, "SQL92", false);
        TagFilter filter = filters.storeFilter(sql);
        assertTrue(filter.matches(12345));
        assertTrue(filter instanceof SqlRecordFilter);
    }

    @Test
    void withThePropertyFilterOffOnlyTagSubscriptionsAreSupported() {
        SubscriptionFilters off = new SubscriptionFilters(new FilterConfig(false, 8));
        assertDoesNotThrow(() -> off.requireSupported("TAG"));
        assertDoesNotThrow(() -> off.requireSupported(null));
        RemotingCommandException refused = assertThrows(RemotingCommandException.class,
            () -> off.requireSupported("SQL92"));
        assertEquals(ResponseCode.SYSTEM_ERROR, refused.responseCode());
        assertEquals("The broker does not support consumer to filter message by SQL92", refused.getMessage());
    }

    @Test
    void theCacheSizeMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new FilterConfig(true, 0));
    }
}
