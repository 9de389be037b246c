package io.vrmq.namesrv.processor;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.Map;

/** Short forms for the NameServer processors' successful replies. */
final class Replies {
    private Replies() {
    }

    static Future<RemotingCommand> ok(RemotingCommand request) {
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    static Future<RemotingCommand> ok(RemotingCommand request, Buffer body) {
        return Future.succeededFuture(RemotingCommand.success(request, body));
    }

    static Future<RemotingCommand> ok(RemotingCommand request, Map<String, String> header, Buffer body) {
        return Future.succeededFuture(RemotingCommand.success(request, header, body));
    }

    static Future<RemotingCommand> fail(RemotingCommand request, int code, String remark) {
        return Future.succeededFuture(RemotingCommand.failure(request, code, remark));
    }
}
