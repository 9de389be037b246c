package io.vrmq.standalone;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.controller.ControllerMain;
import io.vrmq.controller.ControllerVerticle;
import io.vrmq.remoting.launch.ProcessExit;
import io.vrmq.remoting.launch.RoleLauncher;

import java.util.ArrayList;
import java.util.List;

/**
 * A NameServer, optionally a controller, and a Broker in one JVM, the quickest way to a working system:
 * {@code java -jar vrmq-standalone.jar [-namesrv-conf namesrv.json] [-controller-conf controller.json]
 * [-broker-conf broker.json]}. Each role reads its own embedded defaults and optional file; environment variables and
 * -D properties override keys of every role (a key several roles have, like listenPort, belongs in the files instead).
 * The controller runs when {@code -controller-conf} is given, or inside the NameServer when the NameServer's file sets
 * {@code enableControllerInNamesrv: true}. The NameServer starts first, then the controller, then the broker; the
 * broker begins beside them (its store opens while they start) and registers once they serve, so that its first
 * registration succeeds. All share one Vert.x and one Prometheus registry. The other arguments go to
 * the Vert.x launcher ({@code -options vertx-options.json}); {@code -conf} is not one of them here (which role would it
 * be for?), so the launcher's {@code -conf} is refused. Wiring only.
 */
public final class StandaloneMain {
    private static final String NAMESRV_CONF = "namesrv-conf";
    private static final String CONTROLLER_CONF = "controller-conf";
    private static final String BROKER_CONF = "broker-conf";

    private StandaloneMain() {
    }

    public static void main(String[] args) {
        ProcessExit exit = ProcessExit.install();   // first: a SIGTERM from now on exits 0
        if (RoleLauncher.option(args, "conf") != null) {
            System.err.println("start failed: -conf names no role here; give each role its file with -namesrv-conf, "
                + "-controller-conf and -broker-conf");
            exit.exit(1);
            return;
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        String namesrvConfig = RoleLauncher.option(args, NAMESRV_CONF);
        String controllerConfig = RoleLauncher.option(args, CONTROLLER_CONF);
        List<RoleLauncher.Role> roles = new ArrayList<>();
        roles.add(new RoleLauncher.Role(NameServerWithController.NAMESRV_DEFAULTS, namesrvConfig,
            config -> NameServerWithController.nameServer(config, namesrvConfig, registry),
            NameServerWithController.nameServerSiblings()));
        if (controllerConfig != null) {
            roles.add(new RoleLauncher.Role(ControllerMain.DEFAULTS_RESOURCE, controllerConfig,
                config -> new ControllerVerticle(config, registry)));
        }
        roles.add(new RoleLauncher.Role("broker-defaults.json", RoleLauncher.option(args, BROKER_CONF),
            config -> new BrokerVerticle(config, registry)).besideEarlierRoles());
        String[] launcherArgs = RoleLauncher.withoutOptions(args, NAMESRV_CONF, CONTROLLER_CONF, BROKER_CONF);
        RoleLauncher.run(exit, launcherArgs, options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry)),
            roles);
    }
}
