package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vrmq.namesrv.kv.KvConfigStore;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;

/**
 * The KV config commands: PUT (100), GET (101), DELETE (102), GET_KVLIST_BY_NAMESPACE (219). A change is answered
 * once it is on disk, so an acknowledged put survives a restart.
 */
public final class KvConfigProcessor {
    private final KvConfigStore store;
    private final RemotingJson json;

    public KvConfigProcessor(KvConfigStore store, RemotingJson json) {
        this.store = store;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.PUT_KV_CONFIG, this::put);
        table.register(RequestCode.GET_KV_CONFIG, this::get);
        table.register(RequestCode.DELETE_KV_CONFIG, this::delete);
        table.register(RequestCode.GET_KVLIST_BY_NAMESPACE, this::list);
    }

    private Future<RemotingCommand> put(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        return store.put(header.requiredString("namespace"), header.requiredString("key"),
                header.requiredString("value"))
            .map(written -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> get(RemotingConnection connection, RemotingCommand request) {
        String namespace = request.header().requiredString("namespace");
        String key = request.header().requiredString("key");
        String value = store.get(namespace, key);
        if (value == null) {
            return Replies.fail(request, ResponseCode.QUERY_NOT_FOUND, "No config item, Namespace: " + namespace
                + " Key: " + key);
        }
        return Replies.ok(request, Map.of("value", value), null);
    }

    private Future<RemotingCommand> delete(RemotingConnection connection, RemotingCommand request) {
        return store.delete(request.header().requiredString("namespace"), request.header().requiredString("key"))
            .map(written -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> list(RemotingConnection connection, RemotingCommand request) {
        String namespace = request.header().requiredString("namespace");
        Map<String, String> entries = store.namespace(namespace);
        if (entries == null) {
            return Replies.fail(request, ResponseCode.QUERY_NOT_FOUND, "No config item, Namespace: " + namespace);
        }
        return Replies.ok(request, json.encode(new KVTable(entries)));
    }
}
