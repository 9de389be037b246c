package io.vrmq.remoting.launch;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import io.vertx.core.json.JsonObject;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.VertxServiceProvider;
import io.vertx.launcher.application.ExitCodes;
import io.vertx.launcher.application.VertxApplicationHooks;
import io.vertx.launcher.application.impl.HookContextImpl;
import io.vertx.launcher.application.impl.ShutdownHook;
import io.vertx.launcher.application.impl.Utils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * What the Vert.x launcher ({@code VertxApplicationCommand.run} of vertx-launcher-application 5.0.7) does for a
 * command line without launcher options, without its command-line parser. The parser is picocli, Java 5 bytecode,
 * which a class-data archive cannot hold: parsing an empty command line loaded, parsed and verified its 166 classes
 * on every start, archive or not (benchmark/RESULTS.md, "Start after the seventh session"). {@link RoleLauncher} comes
 * here only when there is no launcher option to parse; any option ({@code -options}, {@code --instances}, a wrong
 * one) still goes to the launcher itself.
 * <p>
 * The same steps as the launcher's, in its order: the hooks, the {@code -Dvertx.options.*},
 * {@code -Dvertx.metrics.options.*} and {@code -Dvertx.deployment.options.*} properties (through the launcher's own
 * {@code Utils}), the metrics options converted by the one metrics provider, the Vert.x close hook and the JVM
 * shutdown hook that closes Vert.x, the two-minute limits and the launcher's exit codes. Without options there is
 * no cluster, no tracing options, no threading model and no instance count to apply. Runs on the thread that runs
 * {@code main}.
 */
final class DirectLaunch {
    private static final Logger log = LoggerFactory.getLogger(DirectLaunch.class);
    private static final Duration STEP_LIMIT = Duration.ofMinutes(2);

    private final VertxApplicationHooks hooks;
    private final HookContextImpl context = new HookContextImpl();

    DirectLaunch(VertxApplicationHooks hooks) {
        this.hooks = hooks;
    }

    /** @return the launcher's exit code: 0 once the marker verticle is deployed */
    int launch() {
        try {
            run();
            return 0;
        } catch (StepFailed e) {
            return e.code;
        } catch (RuntimeException e) {
            // The launcher's parser turns any other exception of a step into this code, without printing it: the
            // caller reports the hooks' refusal.
            return ExitCodes.SOFTWARE;
        }
    }

    private void run() {
        JsonObject optionsJson = hooks.afterVertxOptionsParsed(null);
        JsonObject deploymentJson = hooks.afterDeploymentOptionsParsed(null);
        JsonObject config = hooks.afterConfigParsed(null);
        VertxOptions options = optionsJson != null ? new VertxOptions(optionsJson) : new VertxOptions();
        VertxBuilder builder = hooks.createVertxBuilder(options);
        applySystemProperties(options, optionsJson);
        context.setVertxOptions(options);
        hooks.beforeStartingVertx(context);
        Vertx vertx = await(() -> build(builder), "startup", hooks::afterFailureToStartVertx,
            ExitCodes.VERTX_INITIALIZATION);
        context.setVertx(vertx);
        hooks.afterVertxStarted(context);
        ((VertxInternal) vertx).addCloseHook(promise -> {
            try {
                hooks.beforeStoppingVertx(context);
                promise.succeed();
            } catch (Exception e) {
                promise.fail(e);
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(new ShutdownHook(vertx, result -> {
            if (result == null) {
                log.error("Timed out waiting for Vert.x to be closed");
                hooks.afterFailureToStopVertx(context, null);
            } else if (result.failed()) {
                log.error("Failure in stopping Vert.x", result.cause());
                hooks.afterFailureToStopVertx(context, result.cause());
            } else {
                hooks.afterVertxStopped(context);
            }
        })));
        DeploymentOptions deployment = deploymentJson != null ? new DeploymentOptions(deploymentJson)
            : new DeploymentOptions();
        deployment.setConfig(config != null ? config : new JsonObject());
        Utils.configureFromSystemProperties(log, deployment, "vertx.deployment.options.");
        Supplier<? extends Deployable> verticle = hooks.verticleSupplier();
        if (verticle == null) {
            log.error("DirectLaunch deploys the hooks' verticle supplier only; this launch has none");
            throw new StepFailed(ExitCodes.VERTX_DEPLOYMENT);
        }
        context.readyToDeploy(null, deployment);
        hooks.beforeDeployingVerticle(context);
        String deploymentId = await(() -> vertx.deployVerticle(verticle, context.deploymentOptions()),
            "deploying verticle", hooks::afterFailureToDeployVerticle, ExitCodes.VERTX_DEPLOYMENT);
        log.info("Succeeded in deploying verticle");
        context.setDeploymentId(deploymentId);
        hooks.afterVerticleDeployed(context);
    }

    private static Future<Vertx> build(VertxBuilder builder) {
        try {
            return Future.succeededFuture(builder.build());
        } catch (Exception e) {
            log.error("Failed to create the Vert.x instance", e);
            return Future.failedFuture(e);
        }
    }

    /** The launcher's {@code processVertxOptions} without the cluster options (there are none to apply). */
    private static void applySystemProperties(VertxOptions options, JsonObject optionsJson) {
        Utils.configureFromSystemProperties(log, options, "vertx.options.");
        VertxMetricsFactory metricsFactory = onlyProvider(VertxMetricsFactory.class);
        if (metricsFactory == null) {
            return;
        }
        MetricsOptions metricsOptions;
        if (optionsJson != null && optionsJson.containsKey("metricsOptions")) {
            metricsOptions = metricsFactory.newOptions(optionsJson.getJsonObject("metricsOptions"));
        } else {
            MetricsOptions given = options.getMetricsOptions();
            metricsOptions = given == null ? metricsFactory.newOptions() : metricsFactory.newOptions(given);
        }
        Utils.configureFromSystemProperties(log, metricsOptions, "vertx.metrics.options.");
        options.setMetricsOptions(metricsOptions);
    }

    private static <P> P onlyProvider(Class<P> type) {
        List<P> providers = new ArrayList<>();
        for (VertxServiceProvider provider : ServiceLoader.load(VertxServiceProvider.class)) {
            if (type.isAssignableFrom(provider.getClass())) {
                providers.add(type.cast(provider));
            }
        }
        if (providers.size() > 1) {
            log.warn("Cannot convert options, there are several implementations of " + type);
        }
        return providers.size() == 1 ? providers.get(0) : null;
    }

    private interface FailureHook {
        void call(HookContextImpl context, Throwable error);
    }

    private <T> T await(Supplier<Future<T>> step, String name, FailureHook failureHook, int code) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return step.get().toCompletionStage().toCompletableFuture()
                .get(STEP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.error("Thread interrupted in " + name);
            failureHook.call(context, e);
        } catch (ExecutionException e) {
            failureHook.call(context, e.getCause());
            log.error("Failed in " + name, e.getCause());
        } catch (TimeoutException e) {
            log.error("Timed out in " + name);
            failureHook.call(context, null);
        } finally {
            Thread.currentThread().setContextClassLoader(loader);
        }
        throw new StepFailed(code);
    }

    /** A step failed with the launcher's exit code for it. */
    private static final class StepFailed extends RuntimeException {
        private final int code;

        StepFailed(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }
}
