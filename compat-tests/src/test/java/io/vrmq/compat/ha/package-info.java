/**
 * Master/slave replication (RocketMQ's classic HA) with the unmodified official Apache RocketMQ 5.5.0 client and
 * admin: our master and our slave as child JVMs (failover to the slave, SYNC_MASTER acknowledgements, a slave's
 * refusal of sends and its restart), and replication between ours and a real Apache 5.5.0 broker in both directions.
 * Run with {@code mvn -B -pl compat-tests verify -Dit.test='io.vrmq.compat.ha.*IT' -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false} after building the jars.
 *
 * <p>Helpers live in {@code io.vrmq.compat.broker.support} ({@code ReplicaConfig}, {@code ReplicaPair},
 * {@code CommitLogOffsets}, {@code Routes}, {@code ConsumedKeys}) and {@code io.vrmq.compat.support}.
 */
package io.vrmq.compat.ha;
