package io.vrmq.remoting.launch;

import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.config.RoleConfigLoader;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Starts one role the way {@code vertx run} would: reads {@code -conf <file>} (optional) over the embedded
 * defaults, deploys the role's verticle, and on SIGTERM (a JVM shutdown hook) undeploys it and closes Vert.x so that
 * the role can unregister and flush before the process exits. A failed start prints the reason and exits 1.
 */
public final class RoleLauncher {
    private static final long SHUTDOWN_WAIT_SECONDS = 30;

    private RoleLauncher() {
    }

    public static void run(String[] args, String defaultsResource, Function<VertxOptions, Vertx> vertxFactory,
                           Function<JsonObject, Deployable> verticleFactory) {
        String configPath = configPath(args);
        Vertx vertx = vertxFactory.apply(baseOptions());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(vertx), "vrmq-shutdown"));
        RoleConfigLoader.load(vertx, defaultsResource, configPath)
            .compose(config -> vertx.deployVerticle(verticleFactory.apply(config)))
            .onFailure(error -> {
                System.err.println("start failed: " + error.getMessage());
                error.printStackTrace(System.err);
                System.exit(1);
            });
    }

    /**
     * Options every role starts from. The Vert.x file cache is off: Vert.x deletes its cache directory in a JVM
     * shutdown hook of its own, which runs at the same time as ours, and every file written through
     * {@code vertx.fileSystem()} during our shutdown (offsets, topics, KV config) would then fail. We read no
     * classpath resources through the Vert.x file system, so nothing needs the cache.
     */
    public static VertxOptions baseOptions() {
        return new VertxOptions().setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
            .setClassPathResolvingEnabled(false));
    }

    /** The value after {@code -conf} (or {@code --conf}), or {@code null}. */
    static String configPath(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("-conf") || args[i].equals("--conf")) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith("-conf=") || args[i].startsWith("--conf=")) {
                return args[i].substring(args[i].indexOf('=') + 1);
            }
        }
        return null;
    }

    private static void closeQuietly(Vertx vertx) {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("shutdown did not complete cleanly: " + e);
        }
    }
}
