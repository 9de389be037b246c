package io.vrmq.console;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/**
 * Serves the web console's files (loaded into memory at start, see {@link ConsoleFiles}) for GETs that no API route
 * took; anything else goes on to the 404 handler. The pages may load only their own files and talk only to this
 * origin (Content-Security-Policy). Stateless; event loop.
 */
public final class ConsolePages {
    private final ConsoleFiles files;

    public ConsolePages(ConsoleFiles files) {
        this.files = files;
    }

    public void handle(RoutingContext context) {
        ConsoleFiles.File file = files.find(context.normalizedPath());
        if (file == null) {
            context.next();
            return;
        }
        context.response()
            .putHeader("content-type", file.contentType())
            .putHeader("Content-Security-Policy", ConsoleResources.CONTENT_SECURITY_POLICY)
            .putHeader("X-Content-Type-Options", "nosniff")
            .putHeader("Cache-Control", "no-cache")
            .end(Buffer.buffer(file.bytes()));
    }
}
