package io.vrmq.broker.pop;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.body.KVTable;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * POP state survives replication: a master pops four messages and two are acked; once its slave has the CommitLog,
 * both stop and a master is started on the slave's store (what a failover leaves). It rebuilds the in-flight state
 * from the replicated revive log alone (no offsets were copied: no NameServer tells the slave its master), so the two
 * unacked messages come back from the retry topic and the acked ones never do. (On a slow machine the old master has
 * revived them already: the new master then finds its replicated retry topic without a config for it.)
 */
class PopFailoverIT {
    private static final String TOPIC = "PopHaTopic";
    private static final long INVISIBLE_MS = 2_000;
    private static final long WAIT_MS = 30_000;

    private final Vertx vertx = Vertx.vertx();
    private final RemotingClient client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000),
        new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 5_000, 1_024), ProcessorTable.empty(),
        RemotingObserver.NONE);

    @AfterEach
    void closeVertx() {
        vertx.close().await();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aMasterStartedOnItsSlavesStoreRedeliversTheUnackedAndNotTheAcked(@TempDir Path root) {
        BrokerVerticle master = deploy(config(root.resolve("master")));
        String masterAddr = "127.0.0.1:" + master.listenPort();
        BrokerVerticle slave = deploy(config(root.resolve("slave")).put("brokerRole", "SLAVE").put("brokerId", 1)
            .put("haMasterAddress", "127.0.0.1:" + master.haPort()));
        String slaveAddr = "127.0.0.1:" + slave.listenPort();
        createTopic(masterAddr);
        for (int i = 0; i < 4; i++) {
            TestBrokerRequests.requireSuccess(call(masterAddr, RequestCode.SEND_MESSAGE_V2,
                TestBrokerRequests.sendHeader(TOPIC, 0, Map.of("TAGS", "TagA")), Buffer.buffer("m" + i)));
        }
        // Sends are answered before the dispatcher indexes them: a pop before that finds only some, and those stay
        // invisible while the rest come alone, so no pop would ever hold all four.
        await(() -> queueMaxOffset(masterAddr) == 4, "the four messages were never dispatched");
        PopTestBroker.Popped popped = popUntilFound(masterAddr);
        assertEquals(4, popped.messages().size(), "popped: " + popped.bodies());
        for (PopTestBroker.PoppedMessage message : popped.messages()) {
            if (message.body().equals("m0") || message.body().equals("m2")) {
                TestBrokerRequests.requireSuccess(call(masterAddr, RequestCode.ACK_MESSAGE, ackHeader(message), null));
            }
        }
        long masterEnd = commitLogMaxOffset(masterAddr);
        await(() -> commitLogMaxOffset(slaveAddr) == masterEnd, "the slave never caught up to " + masterEnd);
        vertx.undeploy(deploymentOf(slave)).await();
        vertx.undeploy(deploymentOf(master)).await();

        BrokerVerticle promoted = deploy(config(root.resolve("slave")));
        String promotedAddr = "127.0.0.1:" + promoted.listenPort();
        createTopic(promotedAddr);
        Map<String, Integer> back = new TreeMap<>();
        long deadline = System.currentTimeMillis() + WAIT_MS;
        String lastAnswer = "";
        while (back.size() < 2 && System.currentTimeMillis() < deadline) {
            PopTestBroker.Popped again = pop(promotedAddr);
            lastAnswer = again.code() + " " + again.response().remark();
            for (PopTestBroker.PoppedMessage message : again.messages()) {
                back.put(message.body(), message.message().reconsumeTimes());
                TestBrokerRequests.requireSuccess(call(promotedAddr, RequestCode.ACK_MESSAGE, ackHeader(message),
                    null));
            }
        }
        assertEquals(Map.of("m1", 1, "m3", 1), back, "redelivered by the new master (last answer " + lastAnswer
            + ")");
        PopTestBroker.Popped after = PopTestBroker.Popped.of(call(promotedAddr, RequestCode.POP_MESSAGE,
            popHeader(2 * INVISIBLE_MS), null));
        assertEquals(ResponseCode.POLLING_TIMEOUT, after.code(), "nothing else comes back: " + after.bodies());
    }

    private JsonObject config(Path store) {
        return TestBrokerRequests.config(store).put("reviveInterval", PopTestBroker.REVIVE_INTERVAL_MS);
    }

    private final Map<BrokerVerticle, String> deployments = new HashMap<>();

    private BrokerVerticle deploy(JsonObject config) {
        BrokerVerticle broker = new BrokerVerticle(config);
        deployments.put(broker, vertx.deployVerticle(broker).await());
        return broker;
    }

    private String deploymentOf(BrokerVerticle broker) {
        return deployments.get(broker);
    }

    private void createTopic(String addr) {
        TestBrokerRequests.requireSuccess(call(addr, RequestCode.UPDATE_AND_CREATE_TOPIC, Map.of("topic", TOPIC,
            "readQueueNums", "1", "writeQueueNums", "1", "perm", "6", "topicFilterType", "SINGLE_TAG", "order",
            "false"), null));
    }

    private PopTestBroker.Popped popUntilFound(String addr) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        PopTestBroker.Popped popped = pop(addr);
        while (popped.messages().size() < 4 && System.currentTimeMillis() < deadline) {
            popped = pop(addr);
        }
        return popped;
    }

    private PopTestBroker.Popped pop(String addr) {
        return PopTestBroker.Popped.of(call(addr, RequestCode.POP_MESSAGE, popHeader(500), null));
    }

    private static Map<String, String> popHeader(long pollTime) {
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", PopTestBroker.GROUP);
        header.put("topic", TOPIC);
        header.put("queueId", "-1");
        header.put("maxMsgNums", "32");
        header.put("invisibleTime", Long.toString(INVISIBLE_MS));
        header.put("pollTime", Long.toString(pollTime));
        header.put("bornTime", Long.toString(System.currentTimeMillis()));
        header.put("initMode", "0");
        return header;
    }

    private static Map<String, String> ackHeader(PopTestBroker.PoppedMessage message) {
        ExtraInfo receipt = ExtraInfo.parse(message.receipt());
        return Map.of("consumerGroup", PopTestBroker.GROUP, "topic", PopNames.realTopic(TOPIC, PopTestBroker.GROUP,
            receipt.retryMarker()), "queueId", Integer.toString(receipt.queueId()), "extraInfo", message.receipt(),
            "offset", Long.toString(receipt.queueOffset()));
    }

    private RemotingCommand call(String addr, int code, Map<String, String> header, Buffer body) {
        return client.invoke(addr, RemotingCommand.request(code, header, body)).await();
    }

    private long commitLogMaxOffset(String addr) {
        RemotingCommand response = TestBrokerRequests.requireSuccess(call(addr, RequestCode.GET_BROKER_RUNTIME_INFO,
            Map.of(), null));
        return Long.parseLong(new RemotingJson().decode(response.body(), KVTable.class).table()
            .get("commitLogMaxOffset"));
    }

    private long queueMaxOffset(String addr) {
        RemotingCommand response = TestBrokerRequests.requireSuccess(call(addr, RequestCode.GET_MAX_OFFSET,
            Map.of("topic", TOPIC, "queueId", "0"), null));
        return Long.parseLong(response.ext("offset"));
    }

    private void await(BooleanSupplier condition, String failure) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError(failure);
            }
            vertx.timer(20).await();
        }
    }
}
