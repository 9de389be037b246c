package io.vrmq.compat.security;

import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.OfficialClients;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Official 5.5.0 clients signing with the official {@link AclClientRPCHook} (or not at all), each under a unique
 * instance name and closed with the scope that started it. Test thread only.
 */
final class AclClients {
    private static final long ADMIN_TIMEOUT_MS = 5_000;

    private final CompatResources resources;
    private final String namesrvAddr;

    AclClients(CompatResources resources, String namesrvAddr) {
        this.resources = resources;
        this.namesrvAddr = namesrvAddr;
    }

    static RPCHook hook(String accessKey, String secretKey) {
        return new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    /** A started producer signing with {@code hook} (null: unsigned). */
    DefaultMQProducer producer(String group, RPCHook hook) throws MQClientException {
        DefaultMQProducer producer = hook == null ? new DefaultMQProducer(group) : new DefaultMQProducer(group, hook);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(OfficialClients.uniqueInstanceName("acl-producer"));
        producer.start();
        resources.closeClientLater(producer::shutdown);
        return producer;
    }

    /** A reader of whole topics through a started pull consumer signing with {@code hook}. */
    TopicReader reader(String group, RPCHook hook) throws MQClientException {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group, hook);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("acl-reader"));
        consumer.start();
        resources.closeClientLater(consumer::shutdown);
        return new TopicReader(consumer);
    }

    DefaultMQAdminExt admin(RPCHook hook) throws MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(hook, ADMIN_TIMEOUT_MS);
        admin.setNamesrvAddr(namesrvAddr);
        admin.setInstanceName(OfficialClients.uniqueInstanceName("acl-admin"));
        admin.start();
        resources.closeClientLater(admin::shutdown);
        return admin;
    }
}
