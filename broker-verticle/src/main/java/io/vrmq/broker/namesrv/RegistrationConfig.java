package io.vrmq.broker.namesrv;

import io.vertx.core.json.JsonObject;

/**
 * How the broker registers with its NameServers, under RocketMQ's names (defaults in {@code broker-defaults.json}).
 *
 * @param registerBrokerTimeoutMills how long one REGISTER_BROKER may take before the broker counts it failed and
 *                                   retries; RocketMQ's 24 s. A body of 50,000 topics takes a NameServer about a
 *                                   second and longer on a busy machine: with the 3 s request timeout the broker
 *                                   sent the whole body again while the NameServer was still reading the first.
 */
public record RegistrationConfig(long registerBrokerTimeoutMills) {
    public static final long DEFAULT_REGISTER_BROKER_TIMEOUT_MILLS = 24_000;

    public RegistrationConfig {
        if (registerBrokerTimeoutMills <= 0) {
            throw new IllegalArgumentException("invalid registerBrokerTimeoutMills: " + registerBrokerTimeoutMills);
        }
    }

    public static RegistrationConfig from(JsonObject json) {
        return new RegistrationConfig(json.getLong("registerBrokerTimeoutMills",
            DEFAULT_REGISTER_BROKER_TIMEOUT_MILLS));
    }
}
