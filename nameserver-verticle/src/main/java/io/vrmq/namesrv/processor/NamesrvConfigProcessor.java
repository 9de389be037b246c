package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.namesrv.LiveSettings;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;

/**
 * GET_NAMESRV_CONFIG (319) answers every setting as RocketMQ does, a properties text. UPDATE_NAMESRV_CONFIG (318)
 * changes the settings {@link LiveSettings} allows on a running server (not persisted: the config file stays the
 * source at the next start); any other key is refused with NO_PERMISSION, as RocketMQ refuses its black-listed keys.
 */
public final class NamesrvConfigProcessor {
    private final LiveSettings settings;

    public NamesrvConfigProcessor(LiveSettings settings) {
        this.settings = settings;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.GET_NAMESRV_CONFIG, this::get);
        table.register(RequestCode.UPDATE_NAMESRV_CONFIG, this::update);
    }

    private Future<RemotingCommand> get(RemotingConnection connection, RemotingCommand request) {
        StringBuilder text = new StringBuilder();
        settings.current().forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return Replies.ok(request, Buffer.buffer(text.toString()));
    }

    private Future<RemotingCommand> update(RemotingConnection connection, RemotingCommand request) {
        Properties changes = new Properties();
        try {
            changes.load(new StringReader(request.hasBody() ? request.body().toString() : ""));
        } catch (IOException e) {
            return Replies.fail(request, ResponseCode.SYSTEM_ERROR, "string2Properties error: " + e.getMessage());
        }
        String refusal = settings.apply(changes);
        return refusal == null ? Replies.ok(request)
            : Replies.fail(request, ResponseCode.NO_PERMISSION, "Can not update config: " + refusal);
    }
}
