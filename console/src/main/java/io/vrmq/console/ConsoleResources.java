package io.vrmq.console;

/**
 * Where the web console's files sit on the classpath: {@code vrmq-console/} (index.html, styles, ES modules), for
 * vertx-web's StaticHandler on the NameServer's and the broker's admin ports. The console is plain modern JS with no
 * build step and nothing fetched from a CDN, so it works offline. Constants only.
 */
public final class ConsoleResources {
    /** The classpath folder of the console's files, as StaticHandler's webroot. */
    public static final String WEBROOT = "vrmq-console";
    /**
     * The console loads only its own files and talks only to the origin that served it; inline scripts and every
     * other origin are refused, so nothing injected into a page can send the admin token elsewhere.
     */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; "
        + "style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

    private ConsoleResources() {
    }
}
