package io.vrmq.remoting.launch;

import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.config.RoleConfigLoader;

import java.util.List;
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
        run(vertxFactory, List.of(new Role(defaultsResource, option(args, "conf"), verticleFactory)));
    }

    /**
     * Starts several roles in one JVM and one Vert.x, one after the other in the given order (a NameServer before
     * the broker that registers with it); on SIGTERM Vert.x undeploys them in reverse order.
     */
    public static void run(Function<VertxOptions, Vertx> vertxFactory, List<Role> roles) {
        Vertx vertx = vertxFactory.apply(baseOptions());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(vertx), "vrmq-shutdown"));
        Future<?> started = Future.succeededFuture();
        for (Role role : roles) {
            started = started.compose(previous -> RoleConfigLoader.load(vertx, role.defaultsResource(),
                    role.siblingResources(), role.configPath())
                .compose(config -> vertx.deployVerticle(role.verticleFactory().apply(config))));
        }
        started.onFailure(error -> {
            System.err.println("start failed: " + error.getMessage());
            error.printStackTrace(System.err);
            System.exit(1);
        });
    }

    /**
     * One role to start: its embedded defaults, its config file (or null), how to build its verticle, and the defaults
     * of other roles that read the same file (their keys are skipped, not refused).
     */
    public record Role(String defaultsResource, String configPath, Function<JsonObject, Deployable> verticleFactory,
                       List<String> siblingResources) {
        public Role {
            siblingResources = List.copyOf(siblingResources);
        }

        public Role(String defaultsResource, String configPath, Function<JsonObject, Deployable> verticleFactory) {
            this(defaultsResource, configPath, verticleFactory, List.of());
        }
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

    /** The value of {@code -name value} (or {@code --name value}, {@code -name=value}), or {@code null}. */
    public static String option(String[] args, String name) {
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("-" + name) || args[i].equals("--" + name)) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith("-" + name + "=") || args[i].startsWith("--" + name + "=")) {
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
