package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import java.util.TreeMap;

/**
 * GET_NAMESRV_CONFIG (319) answers the effective configuration as RocketMQ does, a properties text.
 * UPDATE_NAMESRV_CONFIG (318) is refused key by key with NO_PERMISSION, as RocketMQ refuses keys on its black list:
 * our settings are read once at start, so a change belongs in the config file and takes a restart.
 */
public final class NamesrvConfigProcessor {
    private final JsonObject effectiveConfig;

    public NamesrvConfigProcessor(JsonObject effectiveConfig) {
        this.effectiveConfig = effectiveConfig.copy();
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_NAMESRV_CONFIG, this::get);
        table.register(RequestCode.UPDATE_NAMESRV_CONFIG, this::update);
    }

    private Future<RemotingCommand> get(RemotingConnection connection, RemotingCommand request) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(effectiveConfig.getMap()).forEach((key, value) -> text.append(key).append('=')
            .append(value).append('\n'));
        return Replies.ok(request, Buffer.buffer(text.toString()));
    }

    private Future<RemotingCommand> update(RemotingConnection connection, RemotingCommand request) {
        Properties changes = new Properties();
        try {
            changes.load(new StringReader(request.hasBody() ? request.body().toString() : ""));
        } catch (IOException e) {
            return Replies.fail(request, ResponseCode.SYSTEM_ERROR, "string2Properties error: " + e.getMessage());
        }
        if (changes.isEmpty()) {
            return Replies.ok(request);
        }
        String key = new TreeMap<>(changes).firstKey().toString();
        String reason = effectiveConfig.containsKey(key) ? "cannot be changed at runtime: set it in the config file"
            + " and restart" : "is not a NameServer setting";
        return Replies.fail(request, ResponseCode.NO_PERMISSION, "Can not update config: " + key + " " + reason);
    }
}
