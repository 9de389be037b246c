package io.vrmq.broker.filter;

import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.TagFilter;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns a subscription (TAG or SQL92) into the filter a store read applies, compiling each SQL92 expression once and
 * keeping it (and each refused one, with its reason) in a bounded least-recently-used cache shared by pulls, held
 * pulls, POP and CHECK_CLIENT_CONFIG. Thread-safe: the cache is guarded by its own monitor, held only for a map
 * access (compiling happens outside it; two threads compiling one new expression at once both succeed alike).
 */
public final class SubscriptionFilters {
    public static final String TAG = "TAG";
    public static final String SQL92 = "SQL92";

    private final FilterConfig config;
    private final Map<String, Object> compiled;

    public SubscriptionFilters(FilterConfig config) {
        this.config = config;
        int capacity = config.maxCachedFilterExpressions();
        this.compiled = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
                return size() > capacity;
            }
        };
    }

    /** RocketMQ's ExpressionType.isTagType: no type, an empty one, or "TAG". */
    public static boolean isTagType(String expressionType) {
        return expressionType == null || expressionType.isEmpty() || TAG.equals(expressionType);
    }

    public boolean isPropertyFilterEnabled() {
        return config.enablePropertyFilter();
    }

    /** Pulls and CHECK_CLIENT_CONFIG refuse non-TAG subscriptions when enablePropertyFilter is off (RocketMQ's answer). */
    public void requireSupported(String expressionType) {
        if (!isTagType(expressionType) && !config.enablePropertyFilter()) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                "The broker does not support consumer to filter message by " + expressionType);
        }
    }

    /**
     * The compiled SQL92 selector of {@code expression}; throws {@link FilterParseException} when it does not compile
     * or the type is neither TAG nor SQL92.
     */
    public SqlSelector selector(String expressionType, String expression) {
        if (!SQL92.equals(expressionType)) {
            throw new FilterParseException("unsupported expression type " + expressionType + " (TAG or SQL92)");
        }
        String key = expression == null ? "" : expression;
        Object cached;
        synchronized (compiled) {
            cached = compiled.get(key);
        }
        if (cached == null) {
            cached = compileOrReason(key);
            synchronized (compiled) {
                compiled.put(key, cached);
            }
        }
        if (cached instanceof SqlSelector selector) {
            return selector;
        }
        throw new FilterParseException((String) cached);
    }

    /** The store filter of a heartbeat's or a request's subscription; throws {@link FilterParseException}. */
    public TagFilter storeFilter(SubscriptionData subscription) {
        if (isTagType(subscription.expressionType())) {
            return tagFilter(subscription);
        }
        return new SqlRecordFilter(selector(subscription.expressionType(), subscription.subString()));
    }

    /** The store filter of an expression sent with a request (pull, pop); throws {@link FilterParseException}. */
    public TagFilter storeFilter(String topic, String expressionType, String expression) {
        if (isTagType(expressionType)) {
            return tagFilter(SubscriptionData.ofTags(topic, expression, 0));
        }
        return new SqlRecordFilter(selector(expressionType, expression));
    }

    private static TagFilter tagFilter(SubscriptionData subscription) {
        if (subscription.isAll()) {
            return TagFilter.ALL;
        }
        Set<Integer> codes = Set.copyOf(subscription.codeSet());
        return tagsCode -> codes.contains((int) tagsCode);
    }

    private static Object compileOrReason(String expression) {
        try {
            return SqlSelector.compile(expression);
        } catch (FilterParseException e) {
            return e.getMessage();
        }
    }
}
