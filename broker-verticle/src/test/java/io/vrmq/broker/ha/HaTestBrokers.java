package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.ext.web.client.WebClient;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A master and a slave broker in one Vert.x (no NameServer: the slave is pointed at the master's HA port) and a
 * remoting client, driven from the test thread: every call blocks until its answer.
 */
final class HaTestBrokers implements AutoCloseable {
    static final String TOPIC = "HaTopic";
    private static final long WAIT_MS = 30_000;

    private final Vertx vertx = Vertx.vertx();
    private final RemotingClient client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000),
        new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 5_000, 1_024), ProcessorTable.empty(),
        RemotingObserver.NONE);
    private final RemotingJson json = new RemotingJson();
    private final WebClient web = WebClient.create(vertx);
    private final Path root;
    private BrokerVerticle master;
    private String masterDeployment;
    private BrokerVerticle slave;
    private String slaveDeployment;

    HaTestBrokers(Path root) {
        this.root = root;
    }

    void startMaster(String role) {
        startMaster(role, new JsonObject());
    }

    /** A master with {@code overrides} on top of the test configuration. */
    void startMaster(String role, JsonObject overrides) {
        JsonObject config = TestBrokerRequests.config(root.resolve("master")).put("brokerRole", role)
            .put("slaveReadEnable", true).put("adminPort", 0).mergeIn(overrides);
        master = new BrokerVerticle(config);
        masterDeployment = vertx.deployVerticle(master).await();
    }

    void startSlave(boolean slaveReadEnable) {
        JsonObject config = TestBrokerRequests.config(root.resolve("slave")).put("brokerRole", "SLAVE")
            .put("brokerId", 1).put("haMasterAddress", "127.0.0.1:" + master.haPort())
            .put("slaveReadEnable", slaveReadEnable).put("adminPort", 0);
        slave = new BrokerVerticle(config);
        slaveDeployment = vertx.deployVerticle(slave).await();
    }

    void stopMaster() {
        vertx.undeploy(masterDeployment).await();
        masterDeployment = null;
    }

    void stopSlave() {
        vertx.undeploy(slaveDeployment).await();
        slaveDeployment = null;
    }

    String masterAddr() {
        return "127.0.0.1:" + master.listenPort();
    }

    String slaveAddr() {
        return "127.0.0.1:" + slave.listenPort();
    }

    /** GET /api/v1/broker/ha from the master's (or the slave's) admin API. */
    JsonObject replicationView(boolean ofMaster) {
        int port = (ofMaster ? master : slave).adminPort();
        return web.get(port, "127.0.0.1", "/api/v1/broker/ha").send().await().bodyAsJsonObject();
    }

    RemotingCommand call(String addr, int code, Map<String, String> header, Buffer body) {
        return client.invoke(addr, RemotingCommand.request(code, header, body)).await();
    }

    /** A topic with {@code queues} queues on {@code addr} (a slave without a NameServer learns none by itself). */
    void createTopic(String addr, int queues) {
        TestBrokerRequests.requireSuccess(call(addr, RequestCode.UPDATE_AND_CREATE_TOPIC, Map.of("topic", TOPIC,
            "readQueueNums", Integer.toString(queues), "writeQueueNums", Integer.toString(queues), "perm", "6",
            "topicFilterType", "SINGLE_TAG", "order", "false"), null));
    }

    RemotingCommand send(String addr, int queueId, byte[] body) {
        return sendAsync(addr, queueId, body).await();
    }

    /** A send not waited for, so that a test can keep several in flight. */
    Future<RemotingCommand> sendAsync(String addr, int queueId, byte[] body) {
        Map<String, String> header = TestBrokerRequests.sendHeader(TOPIC, queueId, new HashMap<>(Map.of("KEYS",
            "k" + body.length)));
        return client.invoke(addr, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, header, Buffer.buffer(body)));
    }

    RemotingCommand pull(String addr, int queueId, long offset) {
        return call(addr, RequestCode.PULL_MESSAGE, Map.of("consumerGroup", "HaGroup", "topic", TOPIC,
            "queueId", Integer.toString(queueId), "queueOffset", Long.toString(offset), "maxMsgNums", "32",
            "sysFlag", "4", "subscription", "*", "subVersion", "1", "expressionType", "TAG"), null);
    }

    long commitLogMaxOffset(String addr) {
        RemotingCommand response = TestBrokerRequests.requireSuccess(call(addr, RequestCode.GET_BROKER_RUNTIME_INFO,
            Map.of(), null));
        return Long.parseLong(json.decode(response.body(), KVTable.class).table().get("commitLogMaxOffset"));
    }

    /** Waits (bounded) until the slave's CommitLog ends where the master's does. */
    void awaitSlaveCaughtUp() {
        long target = commitLogMaxOffset(masterAddr());
        await(() -> commitLogMaxOffset(slaveAddr()) == target, "slave never reached master offset " + target);
    }

    void await(BooleanSupplier condition, String failure) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError(failure);
            }
            vertx.timer(20).await();
        }
    }

    /** The bodies of the records in a pull response. */
    static List<byte[]> bodies(Buffer pulled) {
        return TestBrokerRequests.decodeAll(pulled).stream().map(StoredMessage::body).toList();
    }

    @Override
    public void close() {
        List<Future<?>> stops = new ArrayList<>();
        if (slaveDeployment != null) {
            stops.add(vertx.undeploy(slaveDeployment));
        }
        if (masterDeployment != null) {
            stops.add(vertx.undeploy(masterDeployment));
        }
        web.close();
        Future.join(stops).eventually(client::close).eventually(vertx::close).await();
    }
}
