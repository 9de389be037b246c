package io.vrmq.controller;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.remoting.launch.ProcessExit;
import io.vrmq.remoting.launch.RoleLauncher;

/**
 * Starts one controller node: {@code java -jar vrmq-controller.jar [-conf controller.json]}. Builds Vert.x with
 * Prometheus metrics and deploys {@link ControllerVerticle}; nothing else.
 */
public final class ControllerMain {
    public static final String DEFAULTS_RESOURCE = "controller-defaults.json";

    private ControllerMain() {
    }

    public static void main(String[] args) {
        ProcessExit exit = ProcessExit.install();   // first: a SIGTERM from now on exits 0
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RoleLauncher.run(exit, args, DEFAULTS_RESOURCE, options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry)),
            config -> new ControllerVerticle(config, registry));
    }
}
