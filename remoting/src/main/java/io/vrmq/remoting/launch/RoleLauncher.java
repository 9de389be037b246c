package io.vrmq.remoting.launch;

import io.vertx.core.Deployable;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.launcher.application.VertxApplication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Starts one role (or several in one JVM) through the Vert.x launcher ({@code VertxApplication}, the successor of
 * {@code vertx run}): {@code java -jar vrmq-broker.jar -conf broker.json [-options vertx-options.json]}. The launcher
 * parses the command line and builds Vert.x; {@link RoleHooks} builds it the role's way, reads {@code -conf <file>}
 * (optional) over the embedded defaults (then the environment and -D properties, see
 * {@link io.vrmq.remoting.config.RoleConfigLoader}) and deploys the role's verticle. A command line with no launcher
 * option (nothing, or only {@code -conf}) takes the same steps without the launcher's parser ({@link DirectLaunch}).
 * Stopping (see
 * {@link RoleSupervisor} and {@link ProcessExit}):
 * <ul>
 * <li>SIGTERM or SIGINT at any moment, before, during or after the start: the role starting is interrupted and its
 * start ends, the started roles stop last first (unregister, answer in-flight requests, flush and close their stores),
 * Vert.x closes, and the process exits 0, all within {@code shutdownGraceMs}; past it the process logs what did not
 * finish and exits 1.</li>
 * <li>A start that fails (a config key we do not know, a bad launcher option) prints the reason, stops what did start
 * (within the same grace) and exits 1.</li>
 * </ul>
 * Nothing here blocks an event loop: waits and {@code System.exit} run on threads of their own. Called once, from
 * {@code main}.
 */
public final class RoleLauncher {
    private static final Logger log = LoggerFactory.getLogger(RoleLauncher.class);
    private static final String DEFAULTS_SUFFIX = "-defaults.json";

    private RoleLauncher() {
    }

    /**
     * Starts the role whose embedded defaults are {@code defaultsResource}; {@code args} go to the launcher as they
     * are ({@code -conf} names the role's config file), {@code exit} is the one {@code main} installed first.
     */
    public static void run(ProcessExit exit, String[] args, String defaultsResource,
                           Function<VertxOptions, VertxBuilder> vertxFactory,
                           Function<JsonObject, Deployable> verticleFactory) {
        run(exit, args, defaultsResource, vertxFactory, verticleFactory, null);
    }

    /**
     * The same, for a role that spreads its connections over event loops: {@code --instances N} sets its config
     * key {@code instancesKey} to N (see {@link RoleHooks}).
     */
    public static void run(ProcessExit exit, String[] args, String defaultsResource,
                           Function<VertxOptions, VertxBuilder> vertxFactory,
                           Function<JsonObject, Deployable> verticleFactory, String instancesKey) {
        run(exit, args, vertxFactory, List.of(new Role(defaultsResource, option(args, "conf"), verticleFactory)),
            instancesKey);
    }

    /**
     * Starts several roles in one JVM and one Vert.x in the given order, each once the roles before it serve (a
     * NameServer before the broker that registers with it; a role marked {@link Role#besideEarlierRoles} begins at
     * once and waits for them itself); a stop undeploys them in reverse order. {@code launcherArgs} are the
     * arguments for the launcher ({@code -options}, ...), without the options that name the roles' files.
     */
    public static void run(ProcessExit exit, String[] launcherArgs, Function<VertxOptions, VertxBuilder> vertxFactory,
                           List<Role> roles) {
        run(exit, launcherArgs, vertxFactory, roles, null);
    }

    private static void run(ProcessExit exit, String[] launcherArgs, Function<VertxOptions, VertxBuilder> vertxFactory,
                            List<Role> roles, String instancesKey) {
        NettyJfrEvents.offUnlessAsked();
        RoleSupervisor supervisor;
        boolean nativeTransport;
        try {
            supervisor = new RoleSupervisor(roles);
            nativeTransport = NativeTransport.wanted(roles);
        } catch (RuntimeException e) {
            reportFailedStart(e);
            exit.exit(RoleSupervisor.EXIT_FAILED);
            return;
        }
        if (!exit.supervise(supervisor)) {
            return;   // a stop came first: the shutdown hook is ending the process
        }
        List<String> names = roles.stream().map(Role::name).toList();
        log.info("pid {}: starting {}; SIGTERM stops within shutdownGraceMs ({} ms until a config says otherwise)",
            ProcessHandle.current().pid(), names, supervisor.graceMs());
        RoleHooks hooks = new RoleHooks(exit, supervisor, vertxFactory, String.join(" + ", names), instancesKey,
            nativeTransport);
        int code = needsTheLauncher(launcherArgs) ? new Launcher(launcherArgs, hooks).launch()
            : new DirectLaunch(hooks).launch();
        if (code == 0 || supervisor.isStopRequested()) {
            return;   // started (the supervisor reports a failed role start itself), or stopping already
        }
        reportFailedStart(hooks.refusal() != null ? hooks.refusal()
            : new IllegalArgumentException("the Vert.x launcher did not start (its exit code " + code + ", see above)"));
        exit.exitAfterFailedStart(supervisor);
    }

    /** The launcher, told not to exit on a failure: we stop what started and exit 1 ourselves. */
    private static final class Launcher extends VertxApplication {
        Launcher(String[] args, RoleHooks hooks) {
            super(args, hooks, true, false);
        }
    }

    /**
     * Whether {@code args} hold a launcher option to parse: anything but nothing or one {@code -conf <file>} (the
     * role reads that itself, see {@link #option}). Without one, {@link DirectLaunch} does the launcher's steps without
     * loading its parser.
     */
    static boolean needsTheLauncher(String[] args) {
        if (args.length == 0) {
            return false;
        }
        if (args.length == 1) {
            return !(args[0].startsWith("-conf=") || args[0].startsWith("--conf="));
        }
        return args.length != 2 || !(args[0].equals("-conf") || args[0].equals("--conf"));
    }

    /** {@code args} without the options {@code names} and their values (standalone's per-role files). */
    public static String[] withoutOptions(String[] args, String... names) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String name = optionName(args[i], names);
            if (name == null) {
                kept.add(args[i]);
            } else if (!args[i].contains("=")) {
                i++;   // its value follows
            }
        }
        return kept.toArray(String[]::new);
    }

    private static String optionName(String arg, String[] names) {
        for (String name : names) {
            if (arg.equals("-" + name) || arg.equals("--" + name) || arg.startsWith("-" + name + "=")
                || arg.startsWith("--" + name + "=")) {
                return name;
            }
        }
        return null;
    }

    static void reportFailedStart(Throwable error) {
        System.err.println("start failed: " + error.getMessage());
        error.printStackTrace(System.err);
        System.err.flush();
    }

    /**
     * One role to start: its embedded defaults, its config file (or null), how to build its verticle, the defaults
     * of other roles that read the same file (their keys are skipped, not refused), and whether it starts beside the
     * roles before it ({@link StartsBeside}, its verticle must implement it) rather than once they serve.
     */
    public record Role(String defaultsResource, String configPath, Function<JsonObject, Deployable> verticleFactory,
                       List<String> siblingResources, boolean startsBeside) {
        public Role {
            siblingResources = List.copyOf(siblingResources);
        }

        public Role(String defaultsResource, String configPath, Function<JsonObject, Deployable> verticleFactory,
                    List<String> siblingResources) {
            this(defaultsResource, configPath, verticleFactory, siblingResources, false);
        }

        public Role(String defaultsResource, String configPath, Function<JsonObject, Deployable> verticleFactory) {
            this(defaultsResource, configPath, verticleFactory, List.of());
        }

        /** This role, starting beside the roles before it (see {@link StartsBeside}). */
        public Role besideEarlierRoles() {
            return new Role(defaultsResource, configPath, verticleFactory, siblingResources, true);
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
     * classpath resources through the Vert.x file system, so nothing needs the cache. {@code nativeTransport}: the
     * native epoll transport where it loads, NIO otherwise ({@link NativeTransport}).
     */
    public static VertxOptions baseOptions(boolean nativeTransport) {
        return applyBaseOptions(new VertxOptions(), nativeTransport);
    }

    /**
     * {@code options} (from the launcher's {@code -options}) with the settings of {@link #baseOptions(boolean)}: the
     * role's {@code useEpollNativeSelector} decides the transport, whatever {@code -options} said.
     */
    public static VertxOptions applyBaseOptions(VertxOptions options, boolean nativeTransport) {
        return options.setPreferNativeTransport(nativeTransport)
            .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
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
