package io.vrmq.compat4x;

import static io.vrmq.compat4x.support.Clients49.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat4x.support.Await;
import io.vrmq.compat4x.support.VrmqCluster;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 4.9.8 client's AclClientRPCHook (ACL 1.0's signer, the same signature ACL 2.0 checks) against our broker with
 * authentication and authorization on: a Normal user with Pub and Sub sends (main port and fast channel) and pulls,
 * a wrong secret is refused with 16 and stores nothing. 4.9.8 has no user admin, so the user is made with the admin
 * codes 3001/3006 sent raw by a 4.9.8 remoting client signed as the initial Super user.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Acl49IT {
    private static final String SUPER_USER = "root49";
    private static final String SUPER_SECRET = "root49-secret";
    private static final int QUEUE_COUNT = 4;
    private static final int PERM_READ_WRITE = 6;
    private static final int AUTH_CREATE_USER = 3001;
    private static final int AUTH_CREATE_ACL = 3006;

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void startAnAclBroker() throws Exception {
        cluster.start(dir, "broker-acl49", Map.of("authenticationEnabled", true, "authorizationEnabled", true,
            "initAuthenticationUser", "{\"username\":\"" + SUPER_USER + "\",\"password\":\"" + SUPER_SECRET
                + "\"}"));
        admin = new DefaultMQAdminExt(hook(SUPER_USER, SUPER_SECRET), 5_000);
        admin.setNamesrvAddr(cluster.namesrvAddr());
        admin.setInstanceName(uniqueName("admin49"));
        admin.start();
        cluster.closeLater(admin::shutdown);
    }

    private static RPCHook hook(String accessKey, String secretKey) {
        return new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    private static String createTopic(String prefix) throws Exception {
        String topic = uniqueName(prefix);
        admin.createAndUpdateTopicConfig(cluster.brokerAddr(), new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT,
            PERM_READ_WRITE));
        Await.until("a route for " + topic, Duration.ofSeconds(20),
            () -> !admin.examineTopicRouteInfo(topic).getQueueDatas().isEmpty());
        return topic;
    }

    /** 3001 then 3006, signed as the Super user, through the 4.9.8 transport. */
    private static void createNormalUser(String username, String password, String topic, String group)
        throws Exception {
        NettyRemotingClient remoting = new NettyRemotingClient(new NettyClientConfig());
        remoting.registerRPCHook(hook(SUPER_USER, SUPER_SECRET));
        remoting.start();
        try {
            RemotingCommand user = RemotingCommand.createRequestCommand(AUTH_CREATE_USER, null);
            user.addExtField("username", username);
            user.setBody(("{\"username\":\"" + username + "\",\"password\":\"" + password
                + "\",\"userType\":\"Normal\"}").getBytes(StandardCharsets.UTF_8));
            assertEquals(0, remoting.invokeSync(cluster.brokerAddr(), user, 5_000).getCode());
            RemotingCommand acl = RemotingCommand.createRequestCommand(AUTH_CREATE_ACL, null);
            acl.addExtField("subject", "User:" + username);
            acl.setBody(("{\"subject\":\"User:" + username + "\",\"policies\":[{\"entries\":["
                + "{\"resource\":\"Topic:" + topic + "\",\"actions\":[\"Pub\",\"Sub\"],\"decision\":\"Allow\"},"
                + "{\"resource\":\"Group:" + group + "\",\"actions\":[\"Sub\"],\"decision\":\"Allow\"}]}]}")
                .getBytes(StandardCharsets.UTF_8));
            assertEquals(0, remoting.invokeSync(cluster.brokerAddr(), acl, 5_000).getCode());
        } finally {
            remoting.shutdown();
        }
    }

    private static DefaultMQProducer producer(RPCHook hook, boolean isVipChannelEnabled) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(uniqueName("acl_producer49"), hook);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setVipChannelEnabled(isVipChannelEnabled);
        producer.setInstanceName(uniqueName("acl_producer49"));
        producer.start();
        cluster.closeLater(producer::shutdown);
        return producer;
    }

    private static Message message(String topic, int index) {
        return new Message(topic, "TagA", ("acl49-" + index).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aNormalUserWithPubAndSubSendsOnBothPortsAndPulls() throws Exception {
        String topic = createTopic("Acl49Ok");
        String group = uniqueName("acl49_group");
        createNormalUser("ivan", "ivan-secret", topic, group);
        RPCHook ivan = hook("ivan", "ivan-secret");
        assertEquals(SendStatus.SEND_OK, producer(ivan, false).send(message(topic, 0)).getSendStatus());
        assertEquals(SendStatus.SEND_OK, producer(ivan, true).send(message(topic, 1)).getSendStatus());

        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group, ivan);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(uniqueName("acl_pull49"));
        consumer.start();
        cluster.closeLater(consumer::shutdown);
        Await.until("both messages readable by ivan", Duration.ofSeconds(20), () -> readAll(consumer, topic)
            .size() == 2);
    }

    private static List<MessageExt> readAll(DefaultMQPullConsumer consumer, String topic) throws Exception {
        List<MessageExt> read = new ArrayList<>();
        for (MessageQueue queue : consumer.fetchSubscribeMessageQueues(topic)) {
            PullResult result = consumer.pull(queue, "*", 0, 32);
            if (result.getPullStatus() == PullStatus.FOUND) {
                read.addAll(result.getMsgFoundList());
            }
        }
        return read;
    }

    @Test
    void aWrongSecretIsRefusedWithNoPermissionAndStoresNothing() throws Exception {
        String topic = createTopic("Acl49Wrong");
        createNormalUser("judy", "judy-secret", topic, uniqueName("acl49_group"));
        MQClientException refused = assertThrows(MQClientException.class,
            () -> producer(hook("judy", "not-judys"), false).send(message(topic, 0)));
        int code = refused.getCause() instanceof MQBrokerException broker ? broker.getResponseCode()
            : refused.getResponseCode();
        assertEquals(16, code, refused.toString());
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            assertEquals(0, admin.maxOffset(new MessageQueue(topic, cluster.brokerName(), queueId)));
        }
    }
}
