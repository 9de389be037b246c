package io.vrmq.remoting.admin;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses admin HTTP writes that a web page on another site makes a browser send. The admin ports take writes
 * without a token when none is configured (loopback by default), and a browser sends a cross-site POST with a
 * form or text body without asking first (no CORS preflight), so any page open in an operator's browser could
 * otherwise create or delete topics through http://127.0.0.1. A browser names the page's origin in {@code Origin}
 * and, when it is another site, says so in {@code Sec-Fetch-Site}; tools such as curl send neither and pass.
 * The console is served by the same port, so its writes are same-origin. Stateless; any thread.
 */
public final class CrossSiteWrites {
    private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
        HttpMethod.DELETE);

    private CrossSiteWrites() {
    }

    /** Why {@code request} is refused, or {@code null} when it is a read, same-origin, or not from a browser. */
    public static String refusal(HttpServerRequest request) {
        if (!WRITES.contains(request.method())) {
            return null;
        }
        String fetchSite = request.getHeader("Sec-Fetch-Site");
        if (fetchSite != null && !fetchSite.equalsIgnoreCase("same-origin") && !fetchSite.equalsIgnoreCase("none")) {
            return "cross-site write refused (Sec-Fetch-Site: " + fetchSite + ")";
        }
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return null;
        }
        return isSameOrigin(origin, request.authority(), request.isSSL()) ? null
            : "cross-site write refused (Origin " + origin + " is not this admin port)";
    }

    private static boolean isSameOrigin(String origin, HostAndPort authority, boolean isTls) {
        if (authority == null) {
            return false;
        }
        URI uri;
        try {
            uri = URI.create(origin.trim());
        } catch (IllegalArgumentException e) {
            return false;   // "null" (a sandboxed or file page) and garbage are not this port
        }
        if (uri.getHost() == null || uri.getScheme() == null) {
            return false;
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int defaultPort = scheme.equals("https") ? 443 : 80;
        int originPort = uri.getPort() < 0 ? defaultPort : uri.getPort();
        int requestPort = authority.port() < 0 ? (isTls ? 443 : 80) : authority.port();
        return uri.getHost().equalsIgnoreCase(stripBrackets(authority.host())) && originPort == requestPort;
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
