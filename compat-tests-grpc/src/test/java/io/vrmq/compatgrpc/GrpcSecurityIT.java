package io.vrmq.compatgrpc;

import io.vrmq.compatgrpc.support.AdminApi;
import io.vrmq.compatgrpc.support.Sdk;
import io.vrmq.compatgrpc.support.VrmqCluster;
import org.apache.rocketmq.client.apis.SessionCredentialsProvider;
import org.apache.rocketmq.client.apis.StaticSessionCredentialsProvider;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.SendReceipt;
import org.apache.rocketmq.client.java.exception.ForbiddenException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The gRPC endpoint of a broker with TLS enforced and ACL 2.0 on (authentication and authorization): the SDK's
 * TLS reaches it (and through it the broker, whose own link must use TLS and pass the remoting guard), plain
 * HTTP/2 is closed unanswered, the right credentials send and receive, a wrong secret and a user without Pub are
 * refused and store nothing. One NameServer and broker for the class.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcSecurityIT {
    private static final Duration INVISIBLE = Duration.ofSeconds(30);
    private static final String TOPIC = "GrpcSecure";
    private static final String GROUP = "GrpcSecureGroup";
    private static final String QUIET_TOPIC = "GrpcSecureQuiet";
    private static final String ADMIN_TOKEN = "grpc-security-it-token";
    private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    static final VrmqCluster cluster = new VrmqCluster();
    private static AdminApi admin;

    @BeforeAll
    static void startCluster(@TempDir Path dir) throws Exception {
        cluster.start(dir, "grpc-secure-broker", String.join(",\n",
            "\"tls.server.mode\": \"enforcing\"",
            "\"authenticationEnabled\": true",
            "\"authorizationEnabled\": true",
            "\"innerClientAuthenticationCredentials\": \"{\\\"accessKey\\\":\\\"vrmq-inner\\\","
                + "\\\"secretKey\\\":\\\"inner-secret-1\\\"}\"",
            "\"adminToken\": \"" + ADMIN_TOKEN + "\""));
        admin = new AdminApi(cluster.adminUrl(), ADMIN_TOKEN);
        admin.createTopic(TOPIC, "NORMAL");
        admin.createTopic(QUIET_TOPIC, "NORMAL");
        admin.createGroup(GROUP, 16, false);
        admin.createUser("alice", "alice-secret", "Normal");
        admin.allow("alice", List.of("Topic:" + TOPIC, "Group:" + GROUP), List.of("Pub", "Sub"));
        admin.createUser("bob", "bob-secret", "Normal");
        admin.allow("bob", List.of("Topic:" + QUIET_TOPIC, "Group:" + GROUP), List.of("Sub"));
    }

    @Test
    void rightCredentialsOverTlsSendAndReceive() throws Exception {
        Sdk alice = new Sdk(cluster, true, credentials("alice", "alice-secret"));
        SimpleConsumer consumer = alice.simpleConsumer(GROUP, TOPIC);
        SendReceipt receipt = alice.producer(TOPIC).send(alice.message(TOPIC)
            .setBody("signed".getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> received = Sdk.receiveAndAck(consumer, 1, 5, INVISIBLE);
        assertEquals(List.of(receipt.getMessageId()), received.stream().map(MessageView::getMessageId).toList());
    }

    @Test
    void plainHttp2IsClosedUnanswered() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", cluster.grpcPort()), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(HTTP2_PREFACE);
            out.flush();
            InputStream in = socket.getInputStream();
            assertEquals(-1, in.read(), "an enforcing port answers plain text with nothing but a close");
        }
    }

    @Test
    void aWrongSecretIsRefusedAndStoresNothing() throws Exception {
        Sdk wrong = new Sdk(cluster, true, credentials("alice", "not-her-secret"));
        assertThrows(Exception.class, () -> {
            Producer producer = wrong.producer(QUIET_TOPIC);
            producer.send(wrong.message(QUIET_TOPIC).setBody("x".getBytes(StandardCharsets.UTF_8)).build());
        });
        assertEquals(0, admin.totalMessages(QUIET_TOPIC));
    }

    @Test
    void aUserWithoutPubIsForbiddenAndStoresNothing() throws Exception {
        Sdk bob = new Sdk(cluster, true, credentials("bob", "bob-secret"));
        Producer producer = bob.producer(QUIET_TOPIC);
        assertThrows(ForbiddenException.class, () -> producer.send(bob.message(QUIET_TOPIC)
            .setBody("x".getBytes(StandardCharsets.UTF_8)).build()));
        assertEquals(0, admin.totalMessages(QUIET_TOPIC));
    }

    private static SessionCredentialsProvider credentials(String accessKey, String secret) {
        return new StaticSessionCredentialsProvider(accessKey, secret);
    }
}
