package io.vrmq.compat.broker.support;

import java.nio.file.Path;
import java.util.function.Function;

/**
 * One of our masters and one of our slaves of the same broker name, child JVMs registered with the same NameServer,
 * each with its own store under the test's dir. Test thread only.
 */
public record ReplicaPair(VrmqBroker master, VrmqBroker slave) {

    /** Starts the master in {@code dir/master}, then the slave in {@code dir/slave}; each returns once it booted. */
    public static ReplicaPair start(VrmqBrokers brokers, Path dir, String brokerName, String namesrvAddr,
                                    ReplicaConfig masterConfig, ReplicaConfig slaveConfig) {
        return start(brokers, dir, brokerName, namesrvAddr, masterConfig, master -> slaveConfig);
    }

    /** Like the other start, for a slave config that names the master (its {@link VrmqBroker#haAddress()}). */
    public static ReplicaPair start(VrmqBrokers brokers, Path dir, String brokerName, String namesrvAddr,
                                    ReplicaConfig masterConfig, Function<VrmqBroker, ReplicaConfig> slaveConfig) {
        VrmqBroker master = brokers.start(BrokerSettings.defaults(brokerName, namesrvAddr, dir.resolve("master")),
            masterConfig.keys());
        VrmqBroker slave = brokers.start(BrokerSettings.defaults(brokerName, namesrvAddr, dir.resolve("slave")),
            slaveConfig.apply(master).keys());
        return new ReplicaPair(master, slave);
    }
}
