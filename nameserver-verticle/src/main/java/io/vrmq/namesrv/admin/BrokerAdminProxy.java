package io.vrmq.namesrv.admin;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.namesrv.route.LiveBroker;
import io.vrmq.namesrv.route.RouteTables;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * {@code /proxy/{brokerAddr}/api/v1/...}: forwards a console request to the admin API of a live broker, so the page
 * the NameServer serves talks to one origin only (no CORS, and the admin token goes nowhere but the broker). Only a
 * broker registered and live in the route tables that announced an admin address is a target, only paths under
 * {@code /api/v1/} are forwarded, and only the method, query, JSON body and the Authorization and content-type
 * headers go along: the broker checks its own token. The answer comes back with its status, content type and
 * WWW-Authenticate header. Each forward is bounded by requestTimeoutMs. Event loop; stateless apart from the client.
 */
final class BrokerAdminProxy {
    static final String PREFIX = "/proxy/";
    private static final String API_PREFIX = "/api/v1/";
    private static final Set<HttpMethod> METHODS = Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE);

    private final HttpClient client;
    private final RouteTables routes;
    private final BrokerAdminAddresses adminAddresses;
    private final long requestTimeoutMs;

    BrokerAdminProxy(HttpClient client, RouteTables routes, BrokerAdminAddresses adminAddresses,
                     long requestTimeoutMs) {
        this.client = client;
        this.routes = routes;
        this.adminAddresses = adminAddresses;
        this.requestTimeoutMs = requestTimeoutMs;
    }

    void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        String rest = request.path().substring(PREFIX.length());
        int slash = rest.indexOf('/');
        // The console writes the address URI-encoded ("127.0.0.1%3A10911").
        String brokerAddr = URLDecoder.decode(slash < 0 ? rest : rest.substring(0, slash), StandardCharsets.UTF_8);
        String path = slash < 0 ? "" : rest.substring(slash);
        if (!path.startsWith(API_PREFIX) || path.contains("..") || !METHODS.contains(request.method())) {
            NameServerAdminRouter.error(context, 404, "the proxy forwards GET, POST and DELETE under " + API_PREFIX
                + " only, not " + request.method() + " " + path);
            return;
        }
        String adminAddr = liveAdminAddr(brokerAddr);
        if (adminAddr == null) {
            NameServerAdminRouter.error(context, 404, "no live broker at " + brokerAddr
                + " that announced an admin address");
            return;
        }
        int colon = adminAddr.lastIndexOf(':');
        RequestOptions options = new RequestOptions().setMethod(request.method())
            .setHost(adminAddr.substring(0, colon)).setPort(Integer.parseInt(adminAddr.substring(colon + 1)))
            .setURI(request.query() == null ? path : path + "?" + request.query())
            .setTimeout(requestTimeoutMs);
        copyHeader(request, options, "Authorization");
        copyHeader(request, options, "content-type");
        Buffer body = context.body() == null || context.body().buffer() == null ? Buffer.buffer()
            : context.body().buffer();
        client.request(options)
            .compose(outgoing -> outgoing.send(body))
            .compose(response -> response.body().map(bytes -> relay(context, response, bytes)))
            .onFailure(error -> NameServerAdminRouter.error(context, 502, "broker " + brokerAddr + " admin at "
                + adminAddr + " did not answer: " + error.getMessage()));
    }

    private String liveAdminAddr(String brokerAddr) {
        boolean isLive = routes.liveBrokers().stream().map(LiveBroker::brokerAddr).anyMatch(brokerAddr::equals);
        String adminAddr = isLive ? adminAddresses.of(brokerAddr) : null;
        return adminAddr != null && adminAddr.matches("[^/?#@\\s]+:\\d{1,5}") ? adminAddr : null;
    }

    private static Future<Void> relay(RoutingContext context, HttpClientResponse response, Buffer bytes) {
        context.response().setStatusCode(response.statusCode());
        copyResponseHeader(response, context, "content-type");
        copyResponseHeader(response, context, "WWW-Authenticate");
        return context.response().end(bytes);
    }

    private static void copyHeader(HttpServerRequest request, RequestOptions options, String name) {
        String value = request.getHeader(name);
        if (value != null) {
            options.putHeader(name, value);
        }
    }

    private static void copyResponseHeader(HttpClientResponse response, RoutingContext context, String name) {
        String value = response.getHeader(name);
        if (value != null) {
            context.response().putHeader(name, value);
        }
    }
}
