package io.vrmq.broker;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.remoting.launch.ProcessExit;
import io.vrmq.remoting.launch.RoleLauncher;

/**
 * Starts a broker: {@code java -jar vrmq-broker.jar [-conf broker.json]}. Builds Vert.x with Prometheus metrics (the
 * broker's own meters share the registry) and deploys {@link BrokerVerticle}. Wiring only.
 */
public final class BrokerMain {
    static final String DEFAULTS_RESOURCE = "broker-defaults.json";
    /** {@code --instances N}: the broker's client connections on N event loops (RocketMQ's NettyServerConfig name). */
    static final String INSTANCES_KEY = "serverSelectorThreads";

    private BrokerMain() {
    }

    public static void main(String[] args) {
        ProcessExit exit = ProcessExit.install();   // first: a SIGTERM from now on exits 0
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RoleLauncher.run(exit, args, DEFAULTS_RESOURCE, options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry)),
            config -> new BrokerVerticle(config, registry), INSTANCES_KEY);
    }
}
