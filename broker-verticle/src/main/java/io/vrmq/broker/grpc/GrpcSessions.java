package io.vrmq.broker.grpc;

import io.vrmq.grpc.proto.ClientType;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.Settings;
import io.vrmq.grpc.proto.TelemetryCommand;
import io.vertx.grpc.server.GrpcServerResponse;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The gRPC clients this broker knows, by client id: the settings each sent on its Telemetry stream (what Heartbeat
 * and transaction checks need) and that stream, the only way to reach the client. A client reopens its stream
 * after an error and sends its settings again, so a session is replaced whole. Thread-safe.
 */
final class GrpcSessions {
    /** One client. {@code telemetry} writes to the client; null once its stream closed. */
    record Session(String clientId, Settings settings, String language, String clientVersion, String remoteAddress,
                   GrpcServerResponse<TelemetryCommand, TelemetryCommand> telemetry) {
        ClientType clientType() {
            return settings.getClientType();
        }

        boolean publishes(String topic) {
            if (!settings.hasPublishing()) {
                return false;
            }
            for (Resource published : settings.getPublishing().getTopicsList()) {
                if (published.getName().equals(topic)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    void put(Session session) {
        sessions.put(session.clientId(), session);
    }

    Session get(String clientId) {
        return sessions.get(clientId);
    }

    /** The stream of {@code clientId} closed: its settings stay (its heartbeats go on), the stream is gone. */
    void streamClosed(String clientId, GrpcServerResponse<TelemetryCommand, TelemetryCommand> stream) {
        sessions.computeIfPresent(clientId, (id, session) -> session.telemetry() == stream
            ? new Session(id, session.settings(), session.language(), session.clientVersion(),
            session.remoteAddress(), null) : session);
    }

    void remove(String clientId) {
        sessions.remove(clientId);
    }

    /** A producer of {@code topic} with an open stream (one at random, as the broker picks a producer channel). */
    Session producerOf(String topic) {
        List<Session> candidates = new ArrayList<>();
        for (Session session : sessions.values()) {
            if (session.clientType() == ClientType.PRODUCER && session.telemetry() != null
                && session.publishes(topic)) {
                candidates.add(session);
            }
        }
        return candidates.isEmpty() ? null : candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
    }

    Collection<Session> all() {
        return sessions.values();
    }
}
