package io.vrmq.compat.security;

import static io.vrmq.compat.broker.support.TestMessages.uniqueName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vrmq.compat.broker.support.BrokerSettings;
import io.vrmq.compat.broker.support.TopicReader;
import io.vrmq.compat.broker.support.VrmqBroker;
import io.vrmq.compat.broker.support.VrmqBrokers;
import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.CompatResources;
import io.vrmq.compat.support.NameServerSettings;
import io.vrmq.compat.support.OfficialClients;
import io.vrmq.compat.support.RunningNameServer;
import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on our NameServer and broker (test mode: self-signed certificates) with the official 5.5.0 clients'
 * {@code useTLS}: in permissive mode (the default) TLS and plain clients share the ports; in enforcing mode TLS
 * clients work, a plain one gets nothing, and the broker registers with its enforcing NameServer over TLS (an
 * enforcing broker's own connections use TLS). Two NameServer/broker pairs serve the class.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TlsIT {
    private static final int MESSAGE_COUNT = 3;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    static final CompatResources resources = new CompatResources();
    @RegisterExtension
    static final VrmqBrokers brokers = new VrmqBrokers(resources);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static String permissiveNamesrv;
    private static String enforcingNamesrv;

    @BeforeAll
    static void startAPermissiveAndAnEnforcingPair() {
        permissiveNamesrv = startPair("permissive").address();
        enforcingNamesrv = startPair("enforcing").address();
    }

    private static RunningNameServer startPair(String mode) {
        Path namesrvDir = dir.resolve(mode).resolve("namesrv");
        RunningNameServer nameServer = resources.nameServer(namesrvDir, NameServerSettings.defaults(namesrvDir)
            .withTlsServerMode(mode));
        VrmqBroker broker = brokers.start(BrokerSettings.defaults("broker-tls-" + mode, nameServer.address(),
            dir.resolve(mode).resolve("broker")), Map.of("tls.server.mode", mode));
        assertTrue(broker.process().isAlive());
        return nameServer;
    }

    private static <T extends ClientConfig> T configured(T client, String namesrv, boolean isTls, String role) {
        client.setNamesrvAddr(namesrv);
        client.setUseTLS(isTls);
        client.setInstanceName(OfficialClients.uniqueInstanceName(role));
        return client;
    }

    private static DefaultMQProducer producer(String namesrv, boolean isTls) throws MQClientException {
        DefaultMQProducer producer = configured(new DefaultMQProducer(uniqueName("tls_producer")), namesrv, isTls,
            "tls-producer");
        producer.setSendMsgTimeout(3_000);
        producer.start();
        resources.closeClientLater(producer::shutdown);
        return producer;
    }

    private static TopicReader reader(String namesrv, boolean isTls) throws MQClientException {
        DefaultMQPullConsumer consumer = configured(new DefaultMQPullConsumer(uniqueName("tls_reader")), namesrv,
            isTls, "tls-reader");
        consumer.start();
        resources.closeClientLater(consumer::shutdown);
        return new TopicReader(consumer);
    }

    private static void sendAndRead(String namesrv, boolean isTls, String topic) throws Exception {
        DefaultMQProducer producer = producer(namesrv, isTls);
        for (int i = 0; i < MESSAGE_COUNT; i++) {
            assertEquals(SendStatus.SEND_OK, producer.send(new Message(topic, "TagA",
                ("tls-" + i).getBytes(StandardCharsets.UTF_8))).getSendStatus());
        }
        assertEquals(MESSAGE_COUNT, reader(namesrv, isTls).readAll(topic, MESSAGE_COUNT, READ_TIMEOUT).size());
    }

    @Test
    void permissiveServesTlsAndPlainClientsOnTheSamePorts() throws Exception {
        sendAndRead(permissiveNamesrv, true, uniqueName("TlsPermissive"));
        sendAndRead(permissiveNamesrv, false, uniqueName("PlainPermissive"));
    }

    @Test
    void enforcingServesTlsClientsAfterTheBrokerRegisteredOverTls() throws Exception {
        DefaultMQAdminExt admin = configured(new DefaultMQAdminExt(5_000), enforcingNamesrv, true, "tls-admin");
        admin.start();
        resources.closeClientLater(admin::shutdown);
        Await.until("the enforcing broker registered with its enforcing NameServer", Duration.ofSeconds(30),
            () -> !admin.examineBrokerClusterInfo().getBrokerAddrTable().isEmpty());

        sendAndRead(enforcingNamesrv, true, uniqueName("TlsEnforcing"));
    }

    @Test
    void enforcingGivesAPlainClientNothing() throws Exception {
        DefaultMQProducer plain = producer(enforcingNamesrv, false);
        // The NameServer closes the plain connection at its first byte: no route, so the send cannot even start
        // (the client reports the failed route request as an IllegalStateException or an MQClientException).
        Exception refused = assertThrows(Exception.class, () -> plain.send(new Message(uniqueName("PlainEnforcing"),
            "TagA", "x".getBytes(StandardCharsets.UTF_8))));
        assertTrue(refused instanceof MQClientException || refused instanceof IllegalStateException,
            refused.toString());
    }
}
