package io.vrmq.broker.ha;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.tls.ClientTls;
import io.vrmq.remoting.tls.TlsSettings;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classic replication over TLS: a master with tls.server.mode=enforcing (and its admin API on HTTPS, adminTls) and a
 * slave told to use TLS on its HA link (haClientTls=true) while its own ports stay permissive. The slave copies what
 * the master stores; the master's HTTPS admin view shows the slave's acknowledgement; a plain HA connection to the
 * enforcing master gets no byte and is closed.
 */
class HaTlsIT {
    private static final long WAIT_MS = 30_000;
    private static final String TOPIC = "HaTlsTopic";

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void slaveReplicatesOverTlsFromAnEnforcingMaster(@TempDir Path root) {
        Vertx vertx = Vertx.vertx();
        RemotingClient client = new RemotingClient(vertx, ClientTls.enable(TlsSettings.defaults(),
            new NetClientOptions().setConnectTimeout(3_000)), RemotingLimits.defaults(), ProcessorTable.empty(),
            RemotingObserver.NONE);
        WebClient https = WebClient.create(vertx, new WebClientOptions().setSsl(true).setTrustAll(true)
            .setVerifyHost(false));
        try {
            BrokerVerticle master = new BrokerVerticle(TestBrokerRequests.config(root.resolve("master"))
                .put("brokerRole", "ASYNC_MASTER").put("tls.server.mode", "enforcing").put("adminPort", 0)
                .put("adminTls", true).put("tls.config.file", ""));
            vertx.deployVerticle(master).await();
            BrokerVerticle slave = new BrokerVerticle(TestBrokerRequests.config(root.resolve("slave"))
                .put("brokerRole", "SLAVE").put("brokerId", 1).put("haMasterAddress", "127.0.0.1:" + master.haPort())
                .put("haClientTls", "true").put("tls.config.file", ""));
            vertx.deployVerticle(slave).await();
            String masterAddr = "127.0.0.1:" + master.listenPort();
            String slaveAddr = "127.0.0.1:" + slave.listenPort();
            TestBrokerRequests.requireSuccess(call(client, masterAddr, RequestCode.UPDATE_AND_CREATE_TOPIC,
                Map.of("topic", TOPIC, "readQueueNums", "1", "writeQueueNums", "1", "perm", "6",
                    "topicFilterType", "SINGLE_TAG", "order", "false"), null));
            for (int i = 0; i < 3; i++) {
                assertEquals(ResponseCode.SUCCESS, call(client, masterAddr, RequestCode.SEND_MESSAGE_V2,
                    TestBrokerRequests.sendHeader(TOPIC, 0, new HashMap<>(Map.of("KEYS", "k" + i))),
                    Buffer.buffer("over tls " + i)).code());
            }
            long masterEnd = maxOffset(client, masterAddr);
            await(vertx, () -> maxOffset(client, slaveAddr) == masterEnd, "the slave never reached " + masterEnd);
            await(vertx, () -> {
                JsonObject view = https.get(master.adminPort(), "127.0.0.1", "/api/v1/broker/ha").send().await()
                    .bodyAsJsonObject();
                return view.getJsonArray("slaves").size() == 1
                    && view.getJsonArray("slaves").getJsonObject(0).getLong("ackOffset") == masterEnd;
            }, "the master's HTTPS admin view never showed the slave's acknowledgement");

            assertTrue(plainHaLinkIsClosedUnanswered(vertx, master.haPort()),
                "an enforcing master answered a plain HA connection");
        } finally {
            https.close();
            client.close().eventually(vertx::close).await();
        }
    }

    /** A plain slave's first report (offset 0): the enforcing master closes without sending anything. */
    private static boolean plainHaLinkIsClosedUnanswered(Vertx vertx, int haPort) {
        NetClient plain = vertx.createNetClient(new NetClientOptions().setConnectTimeout(3_000));
        NetSocket socket = plain.connect(haPort, "127.0.0.1").await();
        Promise<Integer> closed = Promise.promise();
        Buffer received = Buffer.buffer();
        socket.handler(received::appendBuffer);
        socket.closeHandler(ignored -> closed.tryComplete(received.length()));
        socket.write(Buffer.buffer().appendLong(0));
        int bytes = closed.future().timeout(10, TimeUnit.SECONDS).await();
        plain.close().await();
        return bytes == 0;
    }

    private static RemotingCommand call(RemotingClient client, String addr, int code, Map<String, String> header,
                                        Buffer body) {
        return client.invoke(addr, RemotingCommand.request(code, header, body)).await();
    }

    private static long maxOffset(RemotingClient client, String addr) {
        RemotingCommand response = TestBrokerRequests.requireSuccess(call(client, addr,
            RequestCode.GET_BROKER_RUNTIME_INFO, Map.of(), null));
        return Long.parseLong(new RemotingJson().decode(response.body(), KVTable.class).table()
            .get("commitLogMaxOffset"));
    }

    private static void await(Vertx vertx, java.util.function.BooleanSupplier condition, String failure) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError(failure);
            }
            vertx.timer(50).await();
        }
    }
}
