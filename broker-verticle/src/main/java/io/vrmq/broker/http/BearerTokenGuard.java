package io.vrmq.broker.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

/**
 * Protects every write (POST, PUT, PATCH, DELETE) with {@code Authorization: Bearer <adminToken>} when adminToken is
 * set; reads stay open (the port binds to 127.0.0.1 by default). A missing or wrong token is 401 with a
 * {@code WWW-Authenticate: Bearer} header. The comparison takes the same time whatever the token's prefix. Stateless
 * apart from the token; event loop.
 */
final class BearerTokenGuard implements Handler<RoutingContext> {
    private static final String BEARER_PREFIX = "Bearer ";
    private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
        HttpMethod.DELETE);

    private final byte[] token;

    BearerTokenGuard(String adminToken) {
        this.token = adminToken.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(RoutingContext context) {
        if (token.length == 0 || !WRITES.contains(context.request().method())) {
            context.next();
            return;
        }
        String authorization = context.request().getHeader("Authorization");
        if (authorization == null || !authorization.startsWith(BEARER_PREFIX)) {
            refuse(context, "missing bearer token: this write needs 'Authorization: Bearer <adminToken>'");
            return;
        }
        byte[] given = authorization.substring(BEARER_PREFIX.length()).trim().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, token)) {
            refuse(context, "wrong bearer token");
            return;
        }
        context.next();
    }

    private static void refuse(RoutingContext context, String message) {
        context.response().putHeader("WWW-Authenticate", "Bearer");
        HttpReplies.error(context, HttpError.UNAUTHORIZED, message);
    }
}
