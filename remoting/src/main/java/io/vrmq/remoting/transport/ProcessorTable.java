package io.vrmq.remoting.transport;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Request code to processor. Built once at start-up, then only read (from every event loop), so a plain map that
 * is not changed after construction is safe to share.
 */
public final class ProcessorTable {
    /** Codes below this (every send, pull and heartbeat code) are found by index, without boxing the code. */
    static final int DIRECT_CODES = 1_024;

    private final Map<Integer, RequestProcessor> processors;
    /** The processors of codes 0 .. DIRECT_CODES - 1 by code; the others only in the map. */
    private final RequestProcessor[] byCode = new RequestProcessor[DIRECT_CODES];
    private final RequestGuard guard;

    private ProcessorTable(Map<Integer, RequestProcessor> processors, RequestGuard guard) {
        this.processors = Map.copyOf(processors);
        this.guard = guard;
        this.processors.forEach((code, processor) -> {
            if (code >= 0 && code < DIRECT_CODES) {
                byCode[code] = processor;
            }
        });
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ProcessorTable empty() {
        return new ProcessorTable(Map.of(), null);
    }

    /** The processor for {@code code}, or {@code null}: the caller answers REQUEST_CODE_NOT_SUPPORTED. */
    public RequestProcessor find(int code) {
        return code >= 0 && code < DIRECT_CODES ? byCode[code] : processors.get(code);
    }

    /** The check every request passes before its processor (also before an unknown code's refusal), or null. */
    public RequestGuard guard() {
        return guard;
    }

    /**
     * This table with every processor replaced by {@code wrap.apply(code, processor)} and the same guard (to run some
     * processors on another context, say).
     */
    public ProcessorTable mapProcessors(BiFunction<Integer, RequestProcessor, RequestProcessor> wrap) {
        Map<Integer, RequestProcessor> wrapped = new HashMap<>();
        processors.forEach((code, processor) -> wrapped.put(code, wrap.apply(code, processor)));
        return new ProcessorTable(wrapped, guard);
    }

    /** A builder that starts with this table's processors and guard (to extend a table built elsewhere). */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.processors.putAll(processors);
        builder.guard = guard;
        return builder;
    }

    public static final class Builder {
        private final Map<Integer, RequestProcessor> processors = new HashMap<>();
        private RequestGuard guard;

        /** Every request passes {@code check} first; {@code null} (the default) means no check at all. */
        public Builder guard(RequestGuard check) {
            this.guard = check;
            return this;
        }

        public Builder register(int code, RequestProcessor processor) {
            if (processors.putIfAbsent(code, processor) != null) {
                throw new IllegalStateException("request code " + code + " registered twice");
            }
            return this;
        }

        public Builder register(RequestProcessor processor, int... codes) {
            for (int code : codes) {
                register(code, processor);
            }
            return this;
        }

        public ProcessorTable build() {
            return new ProcessorTable(processors, guard);
        }
    }
}
