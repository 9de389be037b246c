package io.vrmq.namesrv;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.remoting.launch.RoleLauncher;

/**
 * Starts a NameServer: {@code java -jar vrmq-namesrv.jar [-conf namesrv.json]}. Builds Vert.x with Prometheus
 * metrics and deploys {@link NameServerVerticle}; nothing else.
 */
public final class NameServerMain {
    static final String DEFAULTS_RESOURCE = "namesrv-defaults.json";

    private NameServerMain() {
    }

    public static void main(String[] args) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RoleLauncher.run(args, DEFAULTS_RESOURCE, options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry))
                .build(),
            config -> new NameServerVerticle(config, registry));
    }
}
