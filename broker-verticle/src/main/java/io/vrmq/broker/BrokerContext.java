package io.vrmq.broker;

import io.vrmq.broker.client.ClientRegistry;
import io.vrmq.broker.feature.MessageFeatures;
import io.vrmq.broker.group.SubscriptionGroupTable;
import io.vrmq.broker.ha.Replication;
import io.vrmq.broker.metrics.BrokerMetrics;
import io.vrmq.broker.namesrv.BrokerIdentity;
import io.vrmq.broker.offset.ConsumerOffsetTable;
import io.vrmq.broker.pop.PopInflight;
import io.vrmq.broker.role.RoleState;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.remoting.json.RemotingJson;

/**
 * What the broker's processors share, built once by {@link BrokerVerticle}: settings, tables, the client registry,
 * the way into the store, the traffic meters, this broker's current role and its part in replication, and the POP
 * in-flight counts the admin views show, and the message features (filters). Every member is thread-safe.
 */
public record BrokerContext(BrokerConfig config, BrokerIdentity identity, RemotingJson json,
                            TopicConfigTable topics, SubscriptionGroupTable groups, ConsumerOffsetTable offsets,
                            ClientRegistry clients, StoreAccess store, DelayLevels delayLevels,
                            BrokerMetrics metrics, Replication replication, RoleState role,
                            PopInflight popInflight, MessageFeatures features) {
}
