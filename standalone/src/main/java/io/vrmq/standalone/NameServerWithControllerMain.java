package io.vrmq.standalone;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.remoting.launch.ProcessExit;
import io.vrmq.remoting.launch.RoleLauncher;

import java.util.List;

/**
 * A NameServer that may embed a controller: {@code java -cp vrmq-standalone.jar
 * io.vrmq.standalone.NameServerWithControllerMain -conf namesrv.json}, what {@code scripts/namesrv.sh} runs when the
 * file sets {@code enableControllerInNamesrv: true} (see {@link NameServerWithController}). Wiring only.
 */
public final class NameServerWithControllerMain {
    private NameServerWithControllerMain() {
    }

    public static void main(String[] args) {
        ProcessExit exit = ProcessExit.install();   // first: a SIGTERM from now on exits 0
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        String configPath = RoleLauncher.option(args, "conf");
        RoleLauncher.run(exit, args, options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry)),
            List.of(new RoleLauncher.Role(NameServerWithController.NAMESRV_DEFAULTS, configPath,
                config -> NameServerWithController.nameServer(config, configPath, registry),
                NameServerWithController.nameServerSiblings())));
    }
}
