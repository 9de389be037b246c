package io.vrmq.namesrv.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vrmq.console.ConsoleFiles;
import io.vrmq.console.ConsolePages;
import io.vrmq.remoting.admin.CrossSiteWrites;
import io.vrmq.namesrv.route.LiveBroker;
import io.vrmq.namesrv.route.RouteTables;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The NameServer's HTTP/JSON admin API: health, clusters, brokers, topics, a topic's route, and Prometheus
 * metrics, all read-only; the web console at {@code /}, the brokers' admin addresses for it
 * ({@code /api/v1/console/brokers}) and its way to them ({@code /proxy/{brokerAddr}/api/v1/...}, see
 * {@link BrokerAdminProxy}). Handlers run on the event loop and only read the route tables. Errors are JSON
 * {@code {"error": "...", "status": N}} with the same HTTP status.
 */
public final class NameServerAdminRouter {
    /** Console requests through the proxy carry small JSON bodies; refuse anything larger before buffering it. */
    static final long MAX_PROXY_BODY_BYTES = 64 * 1024;

    private NameServerAdminRouter() {
    }

    /** The admin API without the console and its proxy. */
    public static Router create(Vertx vertx, RouteTables routes, RemotingJson json,
                                PrometheusMeterRegistry registry) {
        return create(vertx, routes, json, registry, new BrokerAdminAddresses(), null, 0, null);
    }

    /**
     * With {@code proxyClient} non-null, console requests for a broker go through it, bounded by the timeout; with
     * {@code consoleFiles} non-null, the console's pages are served.
     */
    public static Router create(Vertx vertx, RouteTables routes, RemotingJson json, PrometheusMeterRegistry registry,
                                BrokerAdminAddresses adminAddresses, HttpClient proxyClient,
                                long proxyTimeoutMs, ConsoleFiles consoleFiles) {
        Router router = Router.router(vertx);
        // Before the proxy: a cross-site page must not reach the brokers' writes through this port either.
        router.route().handler(context -> {
            String crossSite = CrossSiteWrites.refusal(context.request());
            if (crossSite == null) {
                context.next();
            } else {
                error(context, 403, crossSite);
            }
        });
        if (proxyClient != null) {
            BrokerAdminProxy proxy = new BrokerAdminProxy(proxyClient, routes, adminAddresses, proxyTimeoutMs);
            router.route(BrokerAdminProxy.PREFIX + "*")
                .handler(BodyHandler.create(false).setBodyLimit(MAX_PROXY_BODY_BYTES))
                .handler(proxy::handle);
        }
        router.get("/api/v1/console/brokers").handler(context -> send(context, json, 200,
            Map.of("role", "namesrv", "brokers", consoleBrokers(routes, adminAddresses))));
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
        if (consoleFiles != null) {
            router.get().handler(new ConsolePages(consoleFiles)::handle);
        }
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

    /** Each live broker as the console needs it, with the admin address it announced (null: none, e.g. Apache's). */
    private static List<Map<String, Object>> consoleBrokers(RouteTables routes, BrokerAdminAddresses adminAddresses) {
        return routes.liveBrokers().stream().map(broker -> {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("clusterName", broker.clusterName());
            view.put("brokerName", broker.brokerName());
            view.put("brokerId", broker.brokerId());
            view.put("brokerAddr", broker.brokerAddr());
            view.put("haServerAddr", broker.haServerAddr());
            view.put("lastUpdateTimestamp", broker.lastUpdateTimestamp());
            view.put("adminAddr", adminAddresses.of(broker.brokerAddr()));
            return view;
        }).toList();
    }

    static void error(RoutingContext context, int status, String message) {
        if (context.response().ended()) {
            return;
        }
        context.response().setStatusCode(status).putHeader("content-type", "application/json")
            .end(new JsonObject().put("error", message).put("status", status).toBuffer());
    }
}
