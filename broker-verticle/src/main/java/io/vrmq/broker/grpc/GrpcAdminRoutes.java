package io.vrmq.broker.grpc;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.Settings;

import java.util.Comparator;

/**
 * The gRPC endpoint's part of the broker admin API: {@code GET /api/v1/grpc/clients}, the clients whose settings the
 * broker holds (client id, language, SDK version, client type, group or published topics, address, whether their
 * Telemetry stream is open). Runs on the admin server's event loop; reads the thread-safe session table.
 */
final class GrpcAdminRoutes {
    private final GrpcSessions sessions;
    private final int grpcPort;

    GrpcAdminRoutes(GrpcSessions sessions, int grpcPort) {
        this.sessions = sessions;
        this.grpcPort = grpcPort;
    }

    void mount(Router router) {
        router.get("/api/v1/grpc/clients").handler(this::clients);
    }

    private void clients(RoutingContext context) {
        JsonArray clients = new JsonArray();
        sessions.all().stream().sorted(Comparator.comparing(GrpcSessions.Session::clientId))
            .forEach(session -> clients.add(view(session)));
        context.response().putHeader("content-type", "application/json")
            .end(new JsonObject().put("grpcPort", grpcPort).put("clients", clients).encode());
    }

    private static JsonObject view(GrpcSessions.Session session) {
        Settings settings = session.settings();
        JsonObject view = new JsonObject()
            .put("clientId", session.clientId())
            .put("language", session.language())
            .put("version", session.clientVersion())
            .put("clientType", settings.getClientType().name())
            .put("remoteAddress", session.remoteAddress())
            .put("telemetryOpen", session.telemetry() != null);
        if (settings.hasSubscription()) {
            view.put("group", settings.getSubscription().getGroup().getName());
        }
        if (settings.hasPublishing()) {
            view.put("topics", new JsonArray(settings.getPublishing().getTopicsList().stream()
                .map(Resource::getName).toList()));
        }
        return view;
    }
}
