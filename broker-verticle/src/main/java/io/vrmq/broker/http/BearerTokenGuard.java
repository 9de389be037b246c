package io.vrmq.broker.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.server.AuthAdmin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Set;

/**
 * Protects every write (POST, PUT, PATCH, DELETE); reads stay open (the port binds to 127.0.0.1 by default). A write
 * passes with {@code Authorization: Bearer <adminToken>} when adminToken is set, or with
 * {@code Authorization: Basic} of an enabled ACL 2.0 Super user (the users of the admin codes 3001-3010). When the
 * broker authenticates (authenticationEnabled) a write needs one of the two even without adminToken, so that the
 * admin port is no way around ACL. Otherwise, without adminToken, writes are open as before. A refused write is 401
 * with a {@code WWW-Authenticate} header. Comparisons take the same time whatever the secret's prefix. Stateless
 * apart from the token; event loop.
 */
final class BearerTokenGuard implements Handler<RoutingContext> {
    private static final String BEARER_PREFIX = "Bearer ";
    private static final String BASIC_PREFIX = "Basic ";
    private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
        HttpMethod.DELETE);

    private final byte[] token;
    private final AuthAdmin users;
    private final boolean isAuthenticating;

    BearerTokenGuard(String adminToken) {
        this(adminToken, null);
    }

    /** @param users the broker's ACL users (Basic authentication of Super users), or null for none */
    BearerTokenGuard(String adminToken, AuthAdmin users) {
        this.token = adminToken.getBytes(StandardCharsets.UTF_8);
        this.users = users;
        this.isAuthenticating = users != null && users.isAuthenticationEnabled();
    }

    @Override
    public void handle(RoutingContext context) {
        if (!WRITES.contains(context.request().method()) || (token.length == 0 && !isAuthenticating)) {
            context.next();
            return;
        }
        String authorization = context.request().getHeader("Authorization");
        if (authorization != null && authorization.startsWith(BASIC_PREFIX) && users != null) {
            if (isSuperUser(authorization.substring(BASIC_PREFIX.length()).trim())) {
                context.next();
            } else {
                refuse(context, "Basic", "wrong user or password, or not an enabled Super user");
            }
            return;
        }
        if (token.length == 0) {
            refuse(context, "Basic", "ACL authentication is on: this write needs 'Authorization: Basic' of a Super"
                + " user");
            return;
        }
        if (authorization == null || !authorization.startsWith(BEARER_PREFIX)) {
            refuse(context, "Bearer", "missing bearer token: this write needs 'Authorization: Bearer <adminToken>'");
            return;
        }
        byte[] given = authorization.substring(BEARER_PREFIX.length()).trim().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, token)) {
            refuse(context, "Bearer", "wrong bearer token");
            return;
        }
        context.next();
    }

    private boolean isSuperUser(String credentials) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        User user = users.metadata().user(decoded.substring(0, colon));
        return user != null && user.isSuper() && !user.isDisabled() && user.password() != null
            && MessageDigest.isEqual(user.password().getBytes(StandardCharsets.UTF_8),
                decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
    }

    private static void refuse(RoutingContext context, String scheme, String message) {
        context.response().putHeader("WWW-Authenticate", scheme);
        HttpReplies.error(context, HttpError.UNAUTHORIZED, message);
    }
}
