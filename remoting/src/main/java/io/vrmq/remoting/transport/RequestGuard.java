package io.vrmq.remoting.transport;

import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * A check every request of a server passes before its processor runs (the broker's authentication and
 * authorization). It runs on the connection's event loop, so it must not block; a refusal is a thrown
 * {@link io.vrmq.remoting.protocol.RemotingCommandException}, answered with its code and message, and the processor
 * never sees the request. A table without a guard skips the call entirely.
 */
@FunctionalInterface
public interface RequestGuard {
    void check(RemotingConnection connection, RemotingCommand request);
}
