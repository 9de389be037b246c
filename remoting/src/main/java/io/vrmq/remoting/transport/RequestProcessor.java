package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * Answers the requests of one or more request codes. Called on the connection's event loop: it must not block;
 * disk or other slow work goes to a worker and comes back as the future. For a oneway request the future's value is
 * ignored (it may be {@code null}). A thrown or failed {@link io.vrmq.remoting.protocol.RemotingCommandException}
 * becomes a reply with its response code; anything else becomes SYSTEM_ERROR with the message.
 */
@FunctionalInterface
public interface RequestProcessor {
    Future<RemotingCommand> process(RemotingConnection connection, RemotingCommand request);
}
