package io.vrmq.client.it;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.client.ClientException;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.Message;
import io.vrmq.client.VrmqProducer;
import io.vrmq.client.VrmqPushConsumer;
import io.vrmq.client.it.support.Received;
import io.vrmq.client.it.support.TestClients;
import io.vrmq.client.it.support.TestCluster;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Our client against a NameServer and a broker that enforce TLS, the broker with ACL 2.0 on: with useTLS and the
 * Super user's credentials it sends and consumes; without credentials the broker refuses its send with 16.
 */
@ExtendWith(VertxExtension.class)
class SecureClientIT {
    private static final String USER = "root";
    private static final String SECRET = "root-secret";
    private static TestCluster cluster;

    @BeforeAll
    static void startCluster(@TempDir Path dir) {
        JsonObject tls = new JsonObject().put("tls.server.mode", "enforcing");
        cluster = TestCluster.start(dir, 1, tls, tls.copy().put("authenticationEnabled", true)
            .put("authorizationEnabled", true)
            .put("initAuthenticationUser", new JsonObject().put("username", USER).put("password", SECRET).encode()));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Timeout(value = 40, timeUnit = TimeUnit.SECONDS)
    void aSigningTlsClientSendsAndConsumes(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-secure")
            .setUseTLS(true).setCredentials(USER, SECRET));
        VrmqPushConsumer consumer = new VrmqPushConsumer(vertx, TestClients.consumer(cluster.namesrvAddr(),
            "CG-secure").setUseTLS(true).setCredentials(USER, SECRET));
        Received received = new Received();
        consumer.subscribe("TopicSecure", "*").registerListener((messages, queue) -> {
            received.add(messages);
            return Future.succeededFuture(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        });
        producer.start()
            .compose(started -> producer.send(Message.of("TopicSecure", "TagS",
                "over TLS, signed".getBytes(StandardCharsets.UTF_8))))
            .compose(sent -> consumer.start())
            .compose(started -> received.untilDistinct(1))
            .eventually(consumer::close)
            .eventually(producer::close)
            .onComplete(test.succeeding(done -> test.verify(() -> {
                assertEquals("over TLS, signed", new String(received.deliveries().get(0).body(),
                    StandardCharsets.UTF_8));
                test.completeNow();
            })));
    }

    @Test
    @Timeout(value = 40, timeUnit = TimeUnit.SECONDS)
    void anUnsignedTlsClientIsRefusedWithNoPermission(Vertx vertx, VertxTestContext test) {
        VrmqProducer producer = new VrmqProducer(vertx, TestClients.producer(cluster.namesrvAddr(), "PG-unsigned")
            .setUseTLS(true));
        producer.start()
            .compose(started -> producer.send(Message.of("TopicSecure", "TagS", "x".getBytes(StandardCharsets.UTF_8))))
            .eventually(producer::close)
            .onComplete(test.failing(error -> test.verify(() -> {
                ClientException refused = assertInstanceOf(ClientException.class, error);
                assertEquals(ResponseCode.NO_PERMISSION, refused.responseCode(), refused.getMessage());
                test.completeNow();
            })));
    }
}
