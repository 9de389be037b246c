package io.vrmq.compat.security;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static io.vrmq.compat.security.AclClients.hook;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

import io.vrmq.compat.broker.support.TestBed;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.mqadmin.MqAdmin;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL 2.0 on our broker (authenticationEnabled and authorizationEnabled, the initial Super user from
 * initAuthenticationUser) with the official 5.5.0 producer, pull consumer and admin signing with AclClientRPCHook:
 * who may send and consume, Apache's refusals (16 with their remarks) that store nothing, ACL changes that apply at
 * once. One NameServer and one broker serve the class; users and topics are per test.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AclIT {
    static final String SUPER_USER = "rocketmq";
    static final String SUPER_SECRET = "12345678";
    private static final int QUEUE_COUNT = 4;
    private static final int MESSAGE_COUNT = 5;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static TestBed bed;
    private static AclClients clients;
    private static DefaultMQAdminExt admin;
    private static String brokerAddr;

    /** An ACL 1.0 account the broker migrates at start (migrateAuthFromV1Enabled). */
    private static final String PLAIN_ACL_YML = """
        globalWhiteRemoteAddresses:
          - 10.10.103.*
        accounts:
          - accessKey: v1user
            secretKey: v1-secret
            whiteRemoteAddress:
            admin: false
            defaultTopicPerm: PUB|SUB
            defaultGroupPerm: SUB
            topicPerms:
              - AclV1Denied=DENY
        """;

    @BeforeAll
    static void startAnAclBrokerAndASuperAdmin() throws Exception {
        Path home = dir.resolve("rocketmq-home");
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf").resolve("plain_acl.yml"), PLAIN_ACL_YML);
        bed = TestBed.start(resources, brokers, dir, "broker-acl", UnaryOperator.identity(), Map.of(
            "authenticationEnabled", true, "authorizationEnabled", true,
            "initAuthenticationUser", "{\"username\":\"" + SUPER_USER + "\",\"password\":\"" + SUPER_SECRET + "\"}",
            "migrateAuthFromV1Enabled", true, "rocketmqHome", home.toString()));
        clients = new AclClients(resources, bed.namesrvAddr());
        admin = clients.admin(hook(SUPER_USER, SUPER_SECRET));
        brokerAddr = bed.broker().address();
    }

    /** A topic of 4 queues created by the Super admin, with its route at the NameServer. */
    private static String createTopic(String prefix) throws Exception {
        String topic = uniqueName(prefix);
        admin.createAndUpdateTopicConfig(brokerAddr, new TopicConfig(topic, QUEUE_COUNT, QUEUE_COUNT, 6));
        Await.until("a route for " + topic, Duration.ofSeconds(20),
            () -> !admin.examineTopicRouteInfo(topic).getQueueDatas().isEmpty());
        return topic;
    }

    /** A Normal user with one Allow entry per resource for {@code actions}. */
    private static void createUser(String username, String password, List<String> resources, List<String> actions)
        throws Exception {
        admin.createUser(brokerAddr, username, password, "Normal");
        admin.createAcl(brokerAddr, "User:" + username, resources, actions, null, "Allow");
    }

    private static List<Message> messages(String topic, int count) {
        return IntStream.range(0, count).mapToObj(i -> new Message(topic, "TagA", "k" + i,
            ("acl-" + i).getBytes(StandardCharsets.UTF_8))).toList();
    }

    private static void sendAll(DefaultMQProducer producer, List<Message> messages) throws Exception {
        for (Message message : messages) {
            SendResult result = producer.send(message);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
    }

    /** The send is refused with 16 and {@code remark}; then no queue of {@code topic} holds a message. */
    private static void assertSendRefused(DefaultMQProducer producer, String topic, String remark) throws Exception {
        MQClientException refused = assertThrows(MQClientException.class,
            () -> producer.send(messages(topic, 1).get(0)));
        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode(), refused.toString());
        MQBrokerException cause = assertInstanceOf(MQBrokerException.class, refused.getCause(), refused.toString());
        assertEquals(remark, cause.getErrorMessage());
        assertNothingStored(topic);
    }

    private static void assertNothingStored(String topic) throws Exception {
        for (int queueId = 0; queueId < QUEUE_COUNT; queueId++) {
            assertEquals(0, admin.maxOffset(new MessageQueue(topic, bed.broker().brokerName(), queueId)),
                "max offset of " + topic + " queue " + queueId);
        }
    }

    @Test
    void aUserWithPubAndSubSendsAndConsumes() throws Exception {
        String topic = createTopic("AclOk");
        String group = uniqueName("acl_ok_group");
        createUser("alice", "alice-secret", List.of("Topic:" + topic, "Group:" + group), List.of("Pub", "Sub"));
        RPCHook alice = hook("alice", "alice-secret");
        List<Message> sent = messages(topic, MESSAGE_COUNT);
        sendAll(clients.producer(uniqueName("acl_ok_producer"), alice), sent);

        List<MessageExt> read = clients.reader(group, alice).readAll(topic, sent.size(), READ_TIMEOUT);

        assertEquals(sent.size(), read.size());
    }

    @Test
    void aWrongSecretIsRefusedAndStoresNothing() throws Exception {
        String topic = createTopic("AclWrongSecret");
        createUser("bob", "bob-secret", List.of("Topic:" + topic), List.of("Pub"));
        assertSendRefused(clients.producer(uniqueName("acl_p"), hook("bob", "not-bobs")), topic,
            "check signature failed.");
    }

    @Test
    void anUnknownUserIsRefusedAndStoresNothing() throws Exception {
        String topic = createTopic("AclUnknown");
        assertSendRefused(clients.producer(uniqueName("acl_p"), hook("nobody", "x")), topic,
            "User:nobody is not found.");
    }

    @Test
    void anUnsignedClientIsRefusedAndStoresNothing() throws Exception {
        String topic = createTopic("AclUnsigned");
        assertSendRefused(clients.producer(uniqueName("acl_p"), null), topic, "username cannot be null.");
    }

    @Test
    void aSubOnlyUserCannotSendButConsumes() throws Exception {
        String topic = createTopic("AclSubOnly");
        String group = uniqueName("acl_sub_group");
        createUser("carol", "carol-secret", List.of("Topic:" + topic, "Group:" + group), List.of("Sub"));
        RPCHook carol = hook("carol", "carol-secret");
        assertSendRefused(clients.producer(uniqueName("acl_p"), carol), topic, "User:carol has no permission to"
            + " access Topic:" + topic + " from 127.0.0.1, no matched policies.");
        List<Message> sent = messages(topic, MESSAGE_COUNT);
        sendAll(clients.producer(uniqueName("acl_super_producer"), hook(SUPER_USER, SUPER_SECRET)), sent);

        assertEquals(sent.size(), clients.reader(group, carol).readAll(topic, sent.size(), READ_TIMEOUT).size());
    }

    @Test
    void anAclUpdatedToDenyRefusesTheNextSend() throws Exception {
        String topic = createTopic("AclDeny");
        createUser("dave", "dave-secret", List.of("Topic:" + topic), List.of("Pub"));
        DefaultMQProducer producer = clients.producer(uniqueName("acl_p"), hook("dave", "dave-secret"));
        sendAll(producer, messages(topic, 1));

        admin.updateAcl(brokerAddr, "User:dave", List.of("Topic:" + topic), List.of("Pub"), null, "Deny");

        MQClientException refused = assertThrows(MQClientException.class,
            () -> producer.send(messages(topic, 1).get(0)));
        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode(), refused.toString());
        assertEquals("User:dave has no permission to access Topic:" + topic + " from 127.0.0.1, the decision is deny.",
            ((MQBrokerException) refused.getCause()).getErrorMessage());
    }

    @Test
    void onlyASuperUserAdministersUsersAndAcls() throws Exception {
        createUser("erin", "erin-secret", List.of("Topic:whatever"), List.of("Pub"));
        DefaultMQAdminExt normalAdmin = clients.admin(hook("erin", "erin-secret"));
        MQBrokerException refused = assertThrows(MQBrokerException.class,
            () -> normalAdmin.createUser(brokerAddr, "frank", "pw", "Normal"));
        assertEquals(ResponseCode.NO_PERMISSION, refused.getResponseCode());
        assertEquals("User:erin has no permission to access Cluster:" + bed.broker().settings().brokerClusterName()
            + " from 127.0.0.1, no matched policies.", refused.getErrorMessage());
        MQBrokerException duplicate = assertThrows(MQBrokerException.class,
            () -> admin.createUser(brokerAddr, "erin", "other", "Normal"));
        assertEquals(ResponseCode.NO_PERMISSION, duplicate.getResponseCode());
        assertEquals("The user is existed", duplicate.getErrorMessage());
        MQBrokerException noSuchUser = assertThrows(MQBrokerException.class,
            () -> admin.createAcl(brokerAddr, "User:ghost", List.of("Topic:t"), List.of("Pub"), null, "Allow"));
        assertEquals("The subject of User:ghost is not exist.", noSuchUser.getErrorMessage());
    }

    @Test
    void mqadminManagesTheWholeLifecycleOfAUserAndItsAcl() throws Exception {
        RPCHook root = hook(SUPER_USER, SUPER_SECRET);
        String namesrv = bed.namesrvAddr();
        MqAdmin.run(root, namesrv, "createUser", "-b", brokerAddr, "-u", "heidi", "-p", "pw1", "-t", "Normal")
            .assertSucceeded();
        MqAdmin.Output user = MqAdmin.run(root, namesrv, "getUser", "-b", brokerAddr, "-u", "heidi")
            .assertSucceeded();
        assertEquals(List.of("heidi", "pw1", "Normal", "enable"), MqAdmin.Output.columns(user.lineWith("heidi")));
        // -p, -t and -s are one option group of the tool: one change per command.
        MqAdmin.run(root, namesrv, "updateUser", "-b", brokerAddr, "-u", "heidi", "-p", "pw2").assertSucceeded();
        MqAdmin.run(root, namesrv, "updateUser", "-b", brokerAddr, "-u", "heidi", "-s", "disable")
            .assertSucceeded();
        assertEquals(List.of("heidi", "pw2", "Normal", "disable"), MqAdmin.Output.columns(MqAdmin.run(root,
            namesrv, "listUser", "-b", brokerAddr, "-f", "eid").assertSucceeded().lineWith("heidi")));

        MqAdmin.run(root, namesrv, "createAcl", "-b", brokerAddr, "-s", "User:heidi", "-r", "Topic:th,Group:gh",
            "-a", "Pub,Sub", "-d", "Allow").assertSucceeded();
        MqAdmin.run(root, namesrv, "updateAcl", "-b", brokerAddr, "-s", "User:heidi", "-r", "Topic:th", "-a", "Pub",
            "-d", "Deny").assertSucceeded();
        MqAdmin.Output acl = MqAdmin.run(root, namesrv, "getAcl", "-b", brokerAddr, "-s", "User:heidi")
            .assertSucceeded();
        assertTrue(acl.lineWith("Topic:th").contains("Deny"), acl.toString());
        assertTrue(acl.lineWith("Group:gh").contains("Allow"), acl.toString());
        MqAdmin.run(root, namesrv, "deleteAcl", "-b", brokerAddr, "-s", "User:heidi", "-r", "Topic:th")
            .assertSucceeded();
        MqAdmin.Output listed = MqAdmin.run(root, namesrv, "listAcl", "-b", brokerAddr, "-s", "heidi")
            .assertSucceeded();
        assertEquals(List.of(), listed.linesWith("Topic:th"), listed.toString());
        assertEquals(1, listed.linesWith("Group:gh").size(), listed.toString());

        MqAdmin.run(root, namesrv, "deleteUser", "-b", brokerAddr, "-u", "heidi").assertSucceeded();
        assertNull(admin.getUser(brokerAddr, "heidi"));
        List<?> aclsLeft = admin.listAcl(brokerAddr, "heidi", null);
        assertTrue(aclsLeft == null || aclsLeft.isEmpty(), String.valueOf(aclsLeft));
    }

    @Test
    void aMigratedAclV1AccountSendsAndConsumesAndItsNamedDenyBeatsTheDefault() throws Exception {
        String fresh = createTopic("AclV1Fresh");
        String denied = "AclV1Denied";
        admin.createAndUpdateTopicConfig(brokerAddr, new TopicConfig(denied, QUEUE_COUNT, QUEUE_COUNT, 6));
        RPCHook v1 = hook("v1user", "v1-secret");
        List<Message> sent = messages(fresh, MESSAGE_COUNT);
        DefaultMQProducer producer = clients.producer(uniqueName("acl_v1_producer"), v1);
        sendAll(producer, sent);
        assertEquals(sent.size(), clients.reader(uniqueName("acl_v1_group"), v1).readAll(fresh, sent.size(),
            READ_TIMEOUT).size());

        Await.until("a route for " + denied, Duration.ofSeconds(20),
            () -> !admin.examineTopicRouteInfo(denied).getQueueDatas().isEmpty());
        assertSendRefused(producer, denied, "User:v1user has no permission to access Topic:" + denied
            + " from 127.0.0.1, the decision is deny.");
    }

    @Test
    void usersAndAclsSurviveARestart() throws Exception {
        String topic = createTopic("AclRestart");
        createUser("grace", "grace-secret", List.of("Topic:" + topic), List.of("Pub"));

        bed.broker().stop();
        bed.broker().start();

        assertNotNull(admin.getUser(brokerAddr, "grace"));
        DefaultMQProducer producer = clients.producer(uniqueName("acl_p"), hook("grace", "grace-secret"));
        Await.until("grace can send again after the restart", Duration.ofSeconds(30), () -> {
            try {
                return producer.send(messages(topic, 1).get(0)).getSendStatus() == SendStatus.SEND_OK;
            } catch (MQClientException notYet) {
                assertTrue(notYet.getResponseCode() != ResponseCode.NO_PERMISSION, notYet.toString());
                return false;
            }
        });
    }
}
