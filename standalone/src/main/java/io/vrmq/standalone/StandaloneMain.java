package io.vrmq.standalone;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.namesrv.NameServerVerticle;
import io.vrmq.remoting.launch.RoleLauncher;

import java.util.List;

/**
 * A NameServer and a Broker in one JVM, the quickest way to a working system:
 * {@code java -jar vrmq-standalone.jar [-namesrv-conf namesrv.json] [-broker-conf broker.json]}. Each role reads its
 * own embedded defaults and optional file; environment variables and -D properties override keys of either role
 * (a key both roles have, like listenPort, belongs in the files instead). The NameServer starts first so that the
 * broker's first registration succeeds. Both share one Vert.x and one Prometheus registry. Wiring only.
 */
public final class StandaloneMain {
    private StandaloneMain() {
    }

    public static void main(String[] args) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RoleLauncher.run(options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry))
                .build(),
            List.of(new RoleLauncher.Role("namesrv-defaults.json", RoleLauncher.option(args, "namesrv-conf"),
                    config -> new NameServerVerticle(config, registry)),
                new RoleLauncher.Role("broker-defaults.json", RoleLauncher.option(args, "broker-conf"),
                    config -> new BrokerVerticle(config, registry))));
    }
}
