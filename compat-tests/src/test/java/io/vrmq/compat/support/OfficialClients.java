package io.vrmq.compat.support;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Starts the official clients against a NameServer address, each under its own instance name.
 *
 * <p>The official client shares one {@code MQClientInstance} per clientId (ip@instanceName) in the whole JVM, with
 * the namesrvAddr of whichever client started it first; unique instance names keep clients of different tests, and
 * their NameServers, apart. Thread-safe.
 */
public final class OfficialClients {

    /** The admin's default is 5 s; requests to a NameServer on loopback answer in milliseconds. */
    private static final long ADMIN_TIMEOUT_MS = 5_000;
    private static final AtomicInteger INSTANCE_COUNTER = new AtomicInteger();

    static {
        // Every request carries the sender's version, read from this property; the official clients and the broker
        // set it when they start. Set here too, so requests sent before any client started say 5.5.0 as well
        // (a NameServer parses REGISTER_BROKER bodies of versions before 3.0.11 in an older format).
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
    }

    private OfficialClients() {
    }

    /** A started DefaultMQAdminExt (rocketmq-tools) reading from {@code namesrvAddr} ("a" or "a;b"). */
    public static DefaultMQAdminExt admin(String namesrvAddr) throws MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(ADMIN_TIMEOUT_MS);
        admin.setNamesrvAddr(namesrvAddr);
        admin.setInstanceName(uniqueInstanceName("admin"));
        admin.setAdminExtGroup("compat_admin_" + INSTANCE_COUNTER.incrementAndGet());
        admin.start();
        return admin;
    }

    /** A started DefaultMQProducer in {@code group}, routing through {@code namesrvAddr}. */
    public static DefaultMQProducer producer(String namesrvAddr, String group) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(uniqueInstanceName("producer"));
        producer.start();
        return producer;
    }

    /** A started raw remoting client (the transport under every official client), for requests by code. */
    public static NettyRemotingClient remotingClient() {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        return client;
    }

    public static String uniqueInstanceName(String role) {
        return "compat-" + role + "-" + ProcessHandle.current().pid() + "-" + INSTANCE_COUNTER.incrementAndGet();
    }
}
