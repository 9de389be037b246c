package io.vrmq.controller.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vrmq.controller.ControllerConfig;
import io.vrmq.controller.ControllerPeer;
import io.vrmq.controller.decision.BrokerLiveness;
import io.vrmq.controller.raft.ControllerStateMachine;
import io.vrmq.controller.raft.RaftNode;
import io.vrmq.controller.raft.RaftStatus;
import io.vrmq.remoting.json.RemotingJson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The controller's HTTP/JSON admin API: health, this node's Raft view, every broker set with its replicas, and
 * Prometheus metrics. Read-only. Handlers run on the controller's event loop and only read immutable state, the
 * heartbeat table and Ratis' volatile fields. Errors are JSON {@code {"error": "...", "status": N}}.
 */
public final class ControllerAdminRouter {
    private ControllerAdminRouter() {
    }

    /** @param beforeScrape refreshes the per-set gauges before /metrics answers */
    public static Router create(Vertx vertx, ControllerConfig config, RaftNode raft, ControllerStateMachine state,
                                BrokerLiveness liveness, RemotingJson json, PrometheusMeterRegistry registry,
                                Consumer<List<GroupView>> beforeScrape) {
        Router router = Router.router(vertx);
        router.get("/health").handler(context -> {
            RaftStatus status = raft.status();
            send(context, json, 200, Map.of("status", "UP", "selfId", status.selfId(), "isLeader",
                status.isLeader(), "leaderId", String.valueOf(status.leaderId())));
        });
        router.get("/api/v1/controller").handler(context -> send(context, json, 200, controller(config,
            raft.status())));
        router.get("/api/v1/controller/groups").handler(context -> {
            RaftStatus status = raft.status();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("selfId", status.selfId());
            body.put("isLeader", status.isLeader());
            body.put("groups", GroupView.describe(state.state(), liveness));
            send(context, json, 200, body);
        });
        Handler<RoutingContext> scrape = PrometheusScrapingHandler.create(registry);
        router.get("/metrics").handler(context -> {
            beforeScrape.accept(GroupView.describe(state.state(), liveness));
            scrape.handle(context);
        });
        router.route().last().handler(context -> error(context, 404, "no such resource: "
            + context.request().method() + " " + context.request().path()));
        router.route().failureHandler(context -> error(context, context.statusCode() > 0 ? context.statusCode()
            : 500, context.failure() == null ? "request failed" : context.failure().getMessage()));
        return router;
    }

    private static Map<String, Object> controller(ControllerConfig config, RaftStatus status) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("group", config.group());
        body.put("selfId", status.selfId());
        body.put("leaderId", status.leaderId());
        body.put("leaderAddress", status.leaderId() == null ? null : config.controllerAddressOf(status.leaderId()));
        body.put("isLeader", status.isLeader());
        body.put("isLeaderReady", status.isLeaderReady());
        body.put("peers", config.peers().stream().map(peer -> peer(config, peer)).toList());
        Map<String, Object> raftView = new LinkedHashMap<>();
        raftView.put("term", status.term());
        raftView.put("commitIndex", status.commitIndex());
        raftView.put("appliedIndex", status.appliedIndex());
        raftView.put("snapshotIndex", status.snapshotIndex());
        raftView.put("loadedSnapshotIndex", status.loadedSnapshotIndex());
        body.put("raft", raftView);
        return body;
    }

    private static Map<String, Object> peer(ControllerConfig config, ControllerPeer peer) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", peer.id());
        view.put("address", peer.address());
        view.put("raftAddress", config.raftPeers().stream().filter(raftPeer -> raftPeer.id().equals(peer.id()))
            .map(ControllerPeer::address).findFirst().orElse(null));
        return view;
    }

    private static void send(RoutingContext context, RemotingJson json, int status, Object body) {
        Buffer bytes = json.encode(body);
        context.response().setStatusCode(status).putHeader("content-type", "application/json").end(bytes);
    }

    private static void error(RoutingContext context, int status, String message) {
        context.response().setStatusCode(status).putHeader("content-type", "application/json")
            .end(new JsonObject().put("error", message).put("status", status).toBuffer());
    }
}
