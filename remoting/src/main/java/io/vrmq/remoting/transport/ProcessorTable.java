package io.vrmq.remoting.transport;

import java.util.HashMap;
import java.util.Map;

/**
 * Request code to processor. Built once at start-up, then only read (from every event loop), so a plain map that
 * is not changed after construction is safe to share.
 */
public final class ProcessorTable {
    private final Map<Integer, RequestProcessor> processors;

    private ProcessorTable(Map<Integer, RequestProcessor> processors) {
        this.processors = Map.copyOf(processors);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static ProcessorTable empty() {
        return new ProcessorTable(Map.of());
    }

    /** The processor for {@code code}, or {@code null}: the caller answers REQUEST_CODE_NOT_SUPPORTED. */
    public RequestProcessor find(int code) {
        return processors.get(code);
    }

    public static final class Builder {
        private final Map<Integer, RequestProcessor> processors = new HashMap<>();

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
            return new ProcessorTable(processors);
        }
    }
}
