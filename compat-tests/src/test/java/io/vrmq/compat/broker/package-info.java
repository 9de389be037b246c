/**
 * Our broker with the unmodified official Apache RocketMQ 5.5.0 client: each {@code *IT} class starts our NameServer
 * and our broker as child JVMs from the jars the reactor built ({@code vrmq.namesrv.jar}, {@code vrmq.broker.jar}),
 * shares them across its tests where the behaviour allows, and gives every test its own topics and groups.
 * Run with {@code mvn -B -pl compat-tests verify -Dit.test='io.vrmq.compat.broker.**'}.
 *
 * <p>Helpers live in {@code io.vrmq.compat.broker.support}; the shared launchers, ports and waits come from
 * {@code io.vrmq.compat.support}.
 */
package io.vrmq.compat.broker;
