package io.vrmq.broker.client;

import io.vrmq.remoting.protocol.LanguageCode;
import io.vrmq.remoting.transport.RemotingConnection;

/** A client connection as a group member: its id, language, version, and when it last sent a heartbeat. */
public record ClientChannel(String clientId, LanguageCode language, int version, RemotingConnection connection,
                            long lastUpdateTimestamp) {
}
