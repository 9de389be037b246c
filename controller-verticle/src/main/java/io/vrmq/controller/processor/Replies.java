package io.vrmq.controller.processor;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.controller.decision.Decision;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;

/** Turns a {@link Decision} into the response command. Stateless: any thread. */
final class Replies {
    private Replies() {
    }

    static RemotingCommand of(RemotingCommand request, Decision decision, RemotingJson json) {
        Buffer body = decision.body() == null ? null : json.encode(decision.body());
        return RemotingCommand.response(request, decision.code(), decision.remark(),
            decision.header().isEmpty() ? null : new java.util.HashMap<>(decision.header()), body);
    }

    static Future<RemotingCommand> of(RemotingCommand request, Future<Decision> decision, RemotingJson json) {
        return decision.map(done -> of(request, done, json));
    }
}
