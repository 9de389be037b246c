package io.vrmq.ceiling;

import io.vertx.core.Vertx;
import io.vrmq.remoting.launch.RoleLauncher;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar vrmq-ceiling.jar [--port 10911] [--host 127.0.0.1] ...} (see {@link CeilingOptions}): starts the
 * ceiling and prints {@code ceiling ready on host:port}; SIGTERM closes it.
 */
public final class CeilingMain {
    private static final long CLOSE_TIMEOUT_SECONDS = 5;

    private CeilingMain() {
    }

    public static void main(String[] args) throws Exception {
        CeilingOptions options = CeilingOptions.parse(args);
        Vertx vertx = Vertx.vertx(RoleLauncher.baseOptions(options.nativeTransport()));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("ceiling: close did not complete: " + e);
            }
        }, "ceiling-shutdown"));
        CeilingVerticle verticle = new CeilingVerticle(options);
        vertx.deployVerticle(verticle).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        System.out.println("ceiling transport: " + (vertx.isNativeTransportEnabled() ? "epoll" : "NIO"));
        System.out.println("ceiling ready on " + options.host() + ":" + verticle.port());
    }
}
