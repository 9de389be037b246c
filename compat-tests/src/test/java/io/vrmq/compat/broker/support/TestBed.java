package io.vrmq.compat.broker.support;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.RunningNameServer;

/**
 * One of our NameServers and one of our brokers registered with it, both child JVMs, plus a client factory for
 * that NameServer: what most broker test classes share in {@code @BeforeAll}. Test thread only.
 */
public record TestBed(RunningNameServer nameServer, VrmqBroker broker, BrokerClients clients) {

    /** Starts the NameServer in {@code dir/namesrv} and the broker (tuned by {@code tune}) in {@code dir/broker}. */
    public static TestBed start(CompatResources resources, VrmqBrokers brokers, Path dir, String brokerName,
                                UnaryOperator<BrokerSettings> tune) {
        return start(resources, brokers, dir, brokerName, tune, Map.of());
    }

    /** Like the above, with further broker.json keys (see {@link VrmqBroker#start(BrokerSettings, Map)}). */
    public static TestBed start(CompatResources resources, VrmqBrokers brokers, Path dir, String brokerName,
                                UnaryOperator<BrokerSettings> tune, Map<String, ?> extraConfig) {
        Path namesrvDir = dir.resolve("namesrv");
        RunningNameServer nameServer = resources.nameServer(namesrvDir, NameServerSettings.defaults(namesrvDir));
        VrmqBroker broker = brokers.start(tune.apply(
            BrokerSettings.defaults(brokerName, nameServer.address(), dir.resolve("broker"))), extraConfig);
        return new TestBed(nameServer, broker, new BrokerClients(resources, nameServer.address()));
    }

    public static TestBed start(CompatResources resources, VrmqBrokers brokers, Path dir, String brokerName) {
        return start(resources, brokers, dir, brokerName, UnaryOperator.identity());
    }

    public String namesrvAddr() {
        return nameServer.address();
    }
}
