package io.vrmq.broker.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.admin.SystemTopicNames;
import io.vrmq.broker.admin.TopicAdmin;
import io.vrmq.broker.metrics.StoreGauges;
import io.vrmq.broker.auth.server.AuthAdmin;
import io.vrmq.console.ConsoleFiles;
import io.vrmq.console.ConsolePages;
import io.vrmq.remoting.admin.CrossSiteWrites;

/**
 * The broker's HTTP/JSON admin router: health, topics, groups, messages, broker runtime and config under
 * {@code /api/v1}, Prometheus metrics at {@code /metrics}, and the web console at {@code /}. Writes need the bearer token when adminToken is set.
 * Errors are JSON {@code {"error": "...", "status": N}} with the same HTTP status. Handlers run on the event loop and
 * hand every store read to the reader pool.
 */
public final class BrokerAdminRouter {
    /** Admin request bodies are small JSON objects; refuse anything larger before buffering it. */
    static final long MAX_BODY_BYTES = 64 * 1024;

    private BrokerAdminRouter() {
    }

    public static Router create(Vertx vertx, BrokerContext broker, PrometheusMeterRegistry registry,
                                StoreGauges storeGauges, long bootTimestampMs, ConsoleFiles consoleFiles) {
        return create(vertx, broker, registry, storeGauges, bootTimestampMs, consoleFiles, null);
    }

    /** With {@code auth} (may be null): also the ACL 2.0 users and ACLs ({@link AuthRoutes}). */
    public static Router create(Vertx vertx, BrokerContext broker, PrometheusMeterRegistry registry,
                                StoreGauges storeGauges, long bootTimestampMs, ConsoleFiles consoleFiles,
                                AuthAdmin auth) {
        HttpReplies replies = new HttpReplies(broker.json());
        Router router = Router.router(vertx);
        router.route().handler(context -> {
            String crossSite = CrossSiteWrites.refusal(context.request());
            if (crossSite == null) {
                context.next();
            } else {
                HttpReplies.error(context, HttpError.FORBIDDEN, crossSite);
            }
        });
        router.route().handler(new BearerTokenGuard(broker.config().adminToken(), auth));
        router.route().handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        new BrokerRoutes(broker, replies, bootTimestampMs).mount(router);
        new TopicRoutes(broker, new TopicAdmin(broker, new SystemTopicNames(broker.config())), replies).mount(router);
        new GroupRoutes(broker, replies).mount(router);
        new MessageRoutes(broker, replies).mount(router);
        new TraceRoutes(broker, replies).mount(router);
        if (auth != null) {
            new AuthRoutes(auth, broker.json(), replies).mount(router);
        }
        new ConsoleRoutes(broker, replies).mount(router);
        Handler<RoutingContext> scrape = PrometheusScrapingHandler.create(registry);
        router.get("/metrics").handler(context -> storeGauges.refresh().onComplete(refreshed -> {
            if (refreshed.failed()) {
                replies.failure(context, refreshed.cause());
            } else {
                scrape.handle(context);
            }
        }));
        router.get().handler(new ConsolePages(consoleFiles)::handle);
        router.route().last().handler(context -> HttpReplies.error(context, HttpError.NOT_FOUND,
            "no such resource: " + context.request().method() + " " + context.request().path()));
        router.route().failureHandler(context -> {
            if (context.failure() != null) {
                replies.failure(context, context.failure());
            } else {
                HttpReplies.error(context, context.statusCode() > 0 ? context.statusCode() : HttpError.INTERNAL,
                    "request failed");
            }
        });
        return router;
    }
}
