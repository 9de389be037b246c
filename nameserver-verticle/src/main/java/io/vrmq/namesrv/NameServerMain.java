package io.vrmq.namesrv;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vrmq.remoting.launch.ProcessExit;
import io.vrmq.remoting.launch.RoleLauncher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * Starts a NameServer: {@code java -jar vrmq-namesrv.jar [-conf namesrv.json]}. Builds Vert.x with Prometheus
 * metrics and deploys {@link NameServerVerticle}; nothing else.
 *
 * <p>This jar has no controller, so {@code enableControllerInNamesrv=true} (RocketMQ's key for a NameServer with an
 * embedded controller) stops the start with a pointer to the standalone jar, which has both, instead of being ignored.
 */
public final class NameServerMain {
    static final String DEFAULTS_RESOURCE = "namesrv-defaults.json";
    static final String EMBEDDED_CONTROLLER_KEY = "enableControllerInNamesrv";

    private NameServerMain() {
    }

    public static void main(String[] args) {
        ProcessExit exit = ProcessExit.install();   // first: a SIGTERM from now on exits 0
        String refusal = embeddedControllerRefusal(RoleLauncher.option(args, "conf"), System.getenv(),
            System.getProperties());
        if (refusal != null) {
            System.err.println("start failed: " + refusal);
            exit.exit(1);
            return;
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RoleLauncher.run(exit, args, DEFAULTS_RESOURCE, options -> Vertx.builder()
                .with(options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .withMetrics(new MicrometerMetricsFactory(registry)),
            config -> new NameServerVerticle(config, registry));
    }

    /**
     * Why this NameServer must not start, or null: the file, an environment variable or a system property asks for
     * the embedded controller. Read before the config loader runs, whose first complaint would otherwise be the
     * controller keys it does not know.
     */
    static String embeddedControllerRefusal(String configPath, Map<String, String> environment,
                                            Properties systemProperties) {
        boolean isAsked = isTrue(environment.get(EMBEDDED_CONTROLLER_KEY))
            || isTrue(systemProperties.getProperty(EMBEDDED_CONTROLLER_KEY));
        if (!isAsked && configPath != null) {
            try {
                Object value = new JsonObject(Files.readString(Path.of(configPath))).getValue(EMBEDDED_CONTROLLER_KEY);
                isAsked = value != null && isTrue(value.toString());
            } catch (IOException | RuntimeException e) {
                return null;    // the config loader reports an unreadable or malformed file itself
            }
        }
        return !isAsked ? null : EMBEDDED_CONTROLLER_KEY + "=true, but this NameServer jar (vrmq-namesrv.jar) has no "
            + "controller: start it with scripts/namesrv.sh, which then runs the standalone jar's "
            + "io.vrmq.standalone.NameServerWithControllerMain, or run the controller alone (scripts/controller.sh)";
    }

    private static boolean isTrue(String value) {
        return value != null && value.trim().equalsIgnoreCase("true");
    }
}
