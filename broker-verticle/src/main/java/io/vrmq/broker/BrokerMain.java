package io.vrmq.broker;

import io.vertx.core.Vertx;
import io.vrmq.remoting.launch.RoleLauncher;

/** Starts a broker: {@code java -jar vrmq-broker.jar [-conf broker.json]}. Wiring only. */
public final class BrokerMain {
    static final String DEFAULTS_RESOURCE = "broker-defaults.json";

    private BrokerMain() {
    }

    public static void main(String[] args) {
        RoleLauncher.run(args, DEFAULTS_RESOURCE, Vertx::vertx, BrokerVerticle::new);
    }
}
