package io.vrmq.remoting.launch;

import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Function;

/**
 * Starts one role (or several in one JVM) the way {@code vertx run} would: reads {@code -conf <file>} (optional) over
 * the embedded defaults and deploys the role's verticle. Stopping (see {@link RoleSupervisor} and
 * {@link ProcessExit}):
 * <ul>
 * <li>SIGTERM or SIGINT at any moment, before, during or after the start: the role starting is interrupted and its
 * start ends, the started roles stop last first (unregister, answer in-flight requests, flush and close their stores),
 * Vert.x closes, and the process exits 0, all within {@code shutdownGraceMs}; past it the process logs what did not
 * finish and exits 1.</li>
 * <li>A start that fails prints the reason, stops what did start (within the same grace) and exits 1.</li>
 * </ul>
 * Nothing here blocks an event loop: waits and {@code System.exit} run on threads of their own. Called once, from
 * {@code main}.
 */
public final class RoleLauncher {
    private static final Logger log = LoggerFactory.getLogger(RoleLauncher.class);
    private static final String DEFAULTS_SUFFIX = "-defaults.json";

    private RoleLauncher() {
    }

    public static void run(String[] args, String defaultsResource, Function<VertxOptions, Vertx> vertxFactory,
                           Function<JsonObject, Deployable> verticleFactory) {
        run(ProcessExit.install(), args, defaultsResource, vertxFactory, verticleFactory);
    }

    /** Like the other, with the exit {@code main} installed before it built anything else. */
    public static void run(ProcessExit exit, String[] args, String defaultsResource,
                           Function<VertxOptions, Vertx> vertxFactory,
                           Function<JsonObject, Deployable> verticleFactory) {
        run(exit, vertxFactory, List.of(new Role(defaultsResource, option(args, "conf"), verticleFactory)));
    }

    /**
     * Starts several roles in one JVM and one Vert.x, one after the other in the given order (a NameServer before
     * the broker that registers with it); a stop undeploys them in reverse order.
     */
    public static void run(Function<VertxOptions, Vertx> vertxFactory, List<Role> roles) {
        run(ProcessExit.install(), vertxFactory, roles);
    }

    /** Like the other, with the exit {@code main} installed before it built anything else. */
    public static void run(ProcessExit exit, Function<VertxOptions, Vertx> vertxFactory, List<Role> roles) {
        RoleSupervisor supervisor;
        try {
            supervisor = new RoleSupervisor(roles);
        } catch (RuntimeException e) {
            reportFailedStart(e);
            exit.exit(RoleSupervisor.EXIT_FAILED);
            return;
        }
        if (!exit.supervise(supervisor)) {
            return;   // a stop came first: the shutdown hook is ending the process
        }
        log.info("pid {}: starting {}; SIGTERM stops within shutdownGraceMs ({} ms until a config says otherwise)",
            ProcessHandle.current().pid(), roles.stream().map(Role::name).toList(), supervisor.graceMs());
        Vertx vertx;
        try {
            vertx = vertxFactory.apply(baseOptions());
        } catch (RuntimeException e) {
            reportFailedStart(e);
            exit.exit(RoleSupervisor.EXIT_FAILED);
            return;
        }
        supervisor.start(vertx).onFailure(error -> {
            if (supervisor.isStopRequested()) {
                log.info("the start ended early because of the stop: {}", error.getMessage());
                return;
            }
            reportFailedStart(error);
            exit.exitAfterFailedStart(supervisor);
        });
    }

    private static void reportFailedStart(Throwable error) {
        System.err.println("start failed: " + error.getMessage());
        error.printStackTrace(System.err);
        System.err.flush();
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

        /** The role's name in logs: its defaults resource without "-defaults.json" ("broker", "namesrv"). */
        public String name() {
            return defaultsResource.endsWith(DEFAULTS_SUFFIX)
                ? defaultsResource.substring(0, defaultsResource.length() - DEFAULTS_SUFFIX.length())
                : defaultsResource;
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
}
