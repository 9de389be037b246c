package io.vrmq.remoting.launch;

import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.launcher.application.HookContext;
import io.vertx.launcher.application.VertxApplicationHooks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Our part of the Vert.x launcher ({@code io.vertx.launcher.application.VertxApplication}): the launcher parses the
 * command line ({@code -conf}, {@code -options}, {@code --instances}, ...), these hooks build Vert.x the role's way
 * and hand the start and the stop to our {@link RoleSupervisor}:
 * <ul>
 * <li>{@link #createVertxBuilder}: the role's builder (Micrometer metrics in the role's registry) over the options
 * from {@code -options}, with the file cache off and the transport of {@code useEpollNativeSelector} (see
 * {@link RoleLauncher#applyBaseOptions}).</li>
 * <li>{@link #beforeDeployingVerticle}: {@code --instances N} is what Vert.x users ask for more event loops with. A
 * role owns its store, ports and tables, so a second copy in the same JVM could only fail on them; a role that can
 * spread its connections over event loops names the config key that does it ({@code instancesKey}: the broker's
 * {@code serverSelectorThreads}), and N becomes that key's value unless a {@code -D} property of that name was given;
 * the launcher then deploys the marker once. Other roles refuse N other than 1.</li>
 * <li>{@link #verticleSupplier} / {@link #afterVerticleDeployed}: the launcher deploys a {@link RoleGroup} marker at
 * once; the roles then start from the launcher's thread as deployments of their own, so that a stop undeploys them
 * one by one, last first, and the launcher's two-minute deployment limit never cuts a long store recovery short. The
 * supervisor reports a failed start itself ({@code start failed: ...}, exit 1).</li>
 * <li>Stop: the supervisor adds a Vert.x close hook when it starts the roles, so the launcher's shutdown hook
 * ({@code vertx.close()}) and ours ({@link ProcessExit}) run the same ordered stop, once.</li>
 * </ul>
 * Called by the launcher on the thread that runs {@code main}, except the stop.
 */
final class RoleHooks implements VertxApplicationHooks {
    private static final Logger log = LoggerFactory.getLogger(RoleHooks.class);

    private final ProcessExit exit;
    private final RoleSupervisor supervisor;
    private final Function<VertxOptions, VertxBuilder> vertxFactory;
    private final String roleNames;
    private final String instancesKey;
    private final boolean nativeTransport;
    private volatile Vertx vertx;
    private volatile Throwable refusal;

    /**
     * @param instancesKey the config key {@code --instances} sets, or null: only 1 is accepted
     * @param nativeTransport whether to build Vert.x on the native epoll transport ({@link NativeTransport})
     */
    RoleHooks(ProcessExit exit, RoleSupervisor supervisor, Function<VertxOptions, VertxBuilder> vertxFactory,
              String roleNames, String instancesKey, boolean nativeTransport) {
        this.instancesKey = instancesKey;
        this.nativeTransport = nativeTransport;
        this.exit = exit;
        this.supervisor = supervisor;
        this.vertxFactory = vertxFactory;
        this.roleNames = roleNames;
    }

    /** The Vert.x the launcher built, or null before (or when it failed). */
    Vertx vertx() {
        return vertx;
    }

    /** Why a hook refused the start, or null. */
    Throwable refusal() {
        return refusal;
    }

    @Override
    public VertxBuilder createVertxBuilder(VertxOptions options) {
        return vertxFactory.apply(RoleLauncher.applyBaseOptions(options, nativeTransport));
    }

    @Override
    public void afterVertxStarted(HookContext context) {
        vertx = context.vertx();
        NativeTransport.report(vertx, nativeTransport);
    }

    @Override
    public Supplier<? extends Deployable> verticleSupplier() {
        return RoleGroup::new;
    }

    @Override
    public void beforeDeployingVerticle(HookContext context) {
        int instances = context.deploymentOptions().getInstances();
        if (instances != 1 && instancesKey != null && instances > 0) {
            // The roles read their config after this hook, with -D properties over the file: the same path as
            // -DserverSelectorThreads=N, so the value is checked (and refused, naming the key) like any other.
            if (System.getProperty(instancesKey) == null) {
                System.setProperty(instancesKey, Integer.toString(instances));
            }
            log.info("--instances {}: {} serves its client connections on {} event loops ({})", instances, roleNames,
                System.getProperty(instancesKey), instancesKey);
            context.deploymentOptions().setInstances(1);
        } else if (instances != 1) {
            refusal = new IllegalArgumentException("--instances " + instances + ": " + roleNames + " must run as one "
                + "instance per process (it owns its store, ports and tables); start more processes instead");
            throw new IllegalArgumentException(refusal.getMessage());
        }
    }

    @Override
    public void afterVerticleDeployed(HookContext context) {
        supervisor.start(context.vertx()).onFailure(error -> {
            if (supervisor.isStopRequested()) {
                log.info("the start ended early because of the stop: {}", error.getMessage());
                return;
            }
            RoleLauncher.reportFailedStart(error);
            exit.exitAfterFailedStart(supervisor);
        });
    }

    /**
     * What the launcher deploys: nothing of its own. The roles are deployed beside it by the supervisor (see the
     * class comment); Vert.x undeploys this marker when it closes, after the supervisor stopped the roles.
     */
    static final class RoleGroup implements Deployable {
        @Override
        public Future<?> deploy(Context context) {
            return Future.succeededFuture();
        }

        @Override
        public Future<?> undeploy(Context context) {
            return Future.succeededFuture();
        }
    }
}
