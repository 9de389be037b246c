package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.controller.config.ConfigUpdater;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;

/**
 * UPDATE_CONTROLLER_CONFIG (1009, a properties text body) and GET_CONTROLLER_CONFIG (1010, answered as properties
 * text), both answered by any node about itself; mqadmin sends them to each address it is given. Runs on the
 * controller's event loop.
 */
public final class ControllerConfigProcessor {
    private final ConfigUpdater updater;

    public ControllerConfigProcessor(ConfigUpdater updater) {
        this.updater = updater;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.UPDATE_CONTROLLER_CONFIG, this::update);
        table.register(RequestCode.GET_CONTROLLER_CONFIG, this::get);
    }

    private Future<RemotingCommand> get(RemotingConnection connection, RemotingCommand request) {
        return Future.succeededFuture(RemotingCommand.success(request, Buffer.buffer(updater.currentText())));
    }

    private Future<RemotingCommand> update(RemotingConnection connection, RemotingCommand request) {
        Properties changes = new Properties();
        if (request.hasBody()) {
            try {
                changes.load(new StringReader(request.body().toString()));
            } catch (IOException | IllegalArgumentException e) {
                return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                    "string2Properties error: " + e.getMessage()));
            }
        }
        return updater.update(changes).map(updated -> RemotingCommand.success(request, null));
    }
}
