package io.vrmq.standalone;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vrmq.controller.ControllerMain;
import io.vrmq.controller.ControllerVerticle;
import io.vrmq.namesrv.NameServerVerticle;
import io.vrmq.remoting.config.RoleConfigLoader;
import io.vrmq.remoting.launch.InterruptibleRole;
import io.vrmq.remoting.launch.LifecycleSteps;

import java.util.List;

/**
 * A NameServer with its embedded controller, RocketMQ's {@code enableControllerInNamesrv=true}: one config file holds
 * the NameServer's keys and the controller's (each role takes the keys it knows, so a key both have, such as
 * bindAddress or scanNotActiveBrokerInterval, applies to both, as in RocketMQ). The NameServer's admin API keeps
 * {@code adminPort}; the controller's listens on {@code controllerAdminPort} (default 9882), so the two never clash.
 * Both are child deployments of this verticle and stop with it (Vert.x undeploys the children first). A stop during
 * the start ends it at the next step and interrupts the controller's own start. Wiring only; runs on its own event
 * loop.
 */
public final class NameServerWithController extends VerticleBase implements InterruptibleRole {
    static final String NAMESRV_DEFAULTS = "namesrv-defaults.json";
    static final String EMBEDDED_DEFAULTS = "embedded-controller-defaults.json";
    static final String EMBEDDED_KEY = "enableControllerInNamesrv";

    private final JsonObject nameServerConfig;
    private final String configPath;
    private final PrometheusMeterRegistry registry;
    private final LifecycleSteps steps = new LifecycleSteps("namesrv with its controller");
    private volatile ControllerVerticle controller;

    private NameServerWithController(JsonObject nameServerConfig, String configPath,
                                     PrometheusMeterRegistry registry) {
        this.nameServerConfig = nameServerConfig;
        this.configPath = configPath;
        this.registry = registry;
    }

    /** The NameServer role of a launcher: with the embedded controller when its config asks for it. */
    static Deployable nameServer(JsonObject config, String configPath, PrometheusMeterRegistry registry) {
        return config.getBoolean(EMBEDDED_KEY, false) ? new NameServerWithController(config, configPath, registry)
            : new NameServerVerticle(config, registry);
    }

    /** The NameServer's config reads a file that may also hold the embedded controller's keys. */
    static List<String> nameServerSiblings() {
        return List.of(ControllerMain.DEFAULTS_RESOURCE, EMBEDDED_DEFAULTS);
    }

    @Override
    public Future<?> start() {
        return steps.run("starting the NameServer", () -> vertx.deployVerticle(new NameServerVerticle(
                nameServerConfig, registry)))
            .compose(deployed -> steps.run("reading the controller's config", () -> RoleConfigLoader.load(vertx,
                ControllerMain.DEFAULTS_RESOURCE, List.of(NAMESRV_DEFAULTS, EMBEDDED_DEFAULTS), configPath)))
            .compose(controllerConfig -> RoleConfigLoader.load(vertx, EMBEDDED_DEFAULTS,
                    List.of(NAMESRV_DEFAULTS, ControllerMain.DEFAULTS_RESOURCE), configPath)
                .map(embedded -> controllerConfig.copy().put("adminPort", embedded.getInteger("controllerAdminPort"))))
            .compose(controllerConfig -> steps.run("starting the embedded controller", () -> {
                controller = new ControllerVerticle(controllerConfig, registry);
                if (steps.isInterrupted()) {
                    controller.interruptStart();   // the stop came while this step was being entered
                }
                return vertx.deployVerticle(controller);
            }))
            .onSuccess(deployed -> steps.enter("serving"));
    }

    @Override
    public void interruptStart() {
        steps.interrupt();
        ControllerVerticle starting = controller;
        if (starting != null) {
            starting.interruptStart();
        }
    }

    @Override
    public String currentStep() {
        ControllerVerticle starting = controller;
        return starting == null ? steps.current() : steps.current() + " (controller: " + starting.currentStep() + ")";
    }
}
