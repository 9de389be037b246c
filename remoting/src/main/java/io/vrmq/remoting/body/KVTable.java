package io.vrmq.remoting.body;

import java.util.Map;

/** A string table body: KV config namespaces, broker runtime info. */
public record KVTable(Map<String, String> table) {
    public KVTable {
        table = table == null ? Map.of() : table;
    }
}
