package io.vrmq.client.it.support;

import io.vrmq.client.ProducerOptions;
import io.vrmq.client.ConsumerOptions;

/** Client options with short periods, so that tests see routes, heartbeats and rebalances within seconds. */
public final class TestClients {
    private TestClients() {
    }

    public static ProducerOptions producer(String namesrvAddr, String group) {
        return new ProducerOptions().setNamesrvAddr(namesrvAddr).setProducerGroup(group)
            .setClientIp("127.0.0.1")
            .setPollNameServerIntervalMs(1_000)
            .setHeartbeatBrokerIntervalMs(2_000);
    }

    public static ConsumerOptions consumer(String namesrvAddr, String group) {
        return new ConsumerOptions().setNamesrvAddr(namesrvAddr).setConsumerGroup(group)
            .setClientIp("127.0.0.1")
            .setPollNameServerIntervalMs(1_000)
            .setHeartbeatBrokerIntervalMs(2_000)
            .setRebalanceIntervalMs(2_000)
            .setPersistConsumerOffsetIntervalMs(500)
            .setPullErrorRetryMs(500)
            .setLockRenewIntervalMs(2_000);
    }
}
