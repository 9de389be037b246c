package io.vrmq.namesrv.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;

import java.util.Map;

/**
 * The NameServer's HTTP/JSON admin API: health, clusters, brokers, topics, a topic's route, and Prometheus
 * metrics. Read-only. Handlers run on the event loop and only read the route tables. Errors are JSON
 * {@code {"error": "...", "status": N}} with the same HTTP status.
 */
public final class NameServerAdminRouter {
    private NameServerAdminRouter() {
    }

    public static Router create(Vertx vertx, RouteTables routes, RemotingJson json,
                                PrometheusMeterRegistry registry) {
        Router router = Router.router(vertx);
        router.get("/health").handler(context -> send(context, json, 200, Map.of("status", "UP",
            "brokersAlive", routes.liveBrokerCount(), "topics", routes.topicCount())));
        router.get("/api/v1/clusters").handler(context -> send(context, json, 200, routes.clusterInfo()));
        router.get("/api/v1/brokers").handler(context -> send(context, json, 200,
            Map.of("brokers", routes.liveBrokers())));
        router.get("/api/v1/topics").handler(context -> send(context, json, 200,
            Map.of("topics", routes.allTopics().topicList())));
        router.get("/api/v1/topics/:topic/route").handler(context -> {
            String topic = context.pathParam("topic");
            TopicRouteData route = routes.routeOf(topic);
            if (route == null) {
                error(context, 404, "no route for topic " + topic);
            } else {
                send(context, json, 200, route);
            }
        });
        router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
        router.route().last().handler(context -> error(context, 404, "no such resource: "
            + context.request().method() + " " + context.request().path()));
        router.route().failureHandler(context -> error(context, context.statusCode() > 0 ? context.statusCode()
            : 500, context.failure() == null ? "request failed" : context.failure().getMessage()));
        return router;
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
