package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Every registered code is found (by index below the direct range, by map above it), every other one is not. */
class ProcessorTableTest {
    @Test
    void everyCodeFindsItsProcessorOnEitherSideOfTheDirectRange() {
        int[] codes = {0, 10, 310, ProcessorTable.DIRECT_CODES - 1, ProcessorTable.DIRECT_CODES, 200_151, -5,
            Integer.MAX_VALUE, Integer.MIN_VALUE};
        Map<Integer, RequestProcessor> registered = new HashMap<>();
        ProcessorTable.Builder builder = ProcessorTable.builder();
        for (int code : codes) {
            RequestProcessor processor = (connection, request) -> Future.succeededFuture();
            registered.put(code, processor);
            builder.register(code, processor);
        }
        ProcessorTable table = builder.build();
        ProcessorTable wrapped = table.mapProcessors((code, processor) -> processor);

        for (int code : codes) {
            assertSame(registered.get(code), table.find(code), "code " + code);
            assertSame(registered.get(code), wrapped.find(code), "code " + code);
        }
        for (int code : new int[] {1, 11, 311, ProcessorTable.DIRECT_CODES + 1, 200_150, -1}) {
            assertNull(table.find(code), "code " + code);
        }
        assertNull(ProcessorTable.empty().find(310));
    }
}
