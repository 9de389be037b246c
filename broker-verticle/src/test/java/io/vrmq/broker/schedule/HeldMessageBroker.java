package io.vrmq.broker.schedule;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A broker deployed for one retry, schedule or timer test (no NameServer, a small store in the test's temp dir,
 * short delay levels) and a remoting client that sends, pulls and sends back as the official client does.
 * Can be stopped and started again on the same store directory.
 */
public final class HeldMessageBroker {
    /** Level 1 = 1 s, 2 = 2 s, 3 = 1 s (the first retry), 4 = 3 s, then 1 s up to 18. */
    public static final String SHORT_DELAY_LEVELS = "1s 2s 1s 3s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s";
    public static final String GROUP = "CG";

    private final Vertx vertx;
    private final JsonObject config;
    private final RemotingClient client;
    private BrokerVerticle verticle;
    private String deploymentId;

    private HeldMessageBroker(Vertx vertx, JsonObject config) {
        this.vertx = vertx;
        this.config = config;
        this.client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000),
            new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 3_000, 1_024), ProcessorTable.empty(),
            RemotingObserver.NONE);
    }

    public static Future<HeldMessageBroker> start(Vertx vertx, Path storeDir) {
        return start(vertx, storeDir, new JsonObject());
    }

    public static Future<HeldMessageBroker> start(Vertx vertx, Path storeDir, JsonObject overrides) {
        HeldMessageBroker broker = new HeldMessageBroker(vertx, config(storeDir).mergeIn(overrides));
        return broker.deploy().map(broker);
    }

    private static JsonObject config(Path storeDir) {
        return TestBrokerRequests.config(storeDir).put("messageDelayLevel", SHORT_DELAY_LEVELS);
    }

    private Future<Void> deploy() {
        verticle = new BrokerVerticle(config);
        return vertx.deployVerticle(verticle).map(id -> {
            deploymentId = id;
            return null;
        });
    }

    /** Clean stop, then a new broker on the same store directory (a new port). */
    public Future<HeldMessageBroker> restart() {
        String oldAddress = address();
        return vertx.undeploy(deploymentId)
            .compose(stopped -> client.disconnect(oldAddress).otherwise((Void) null))
            .compose(disconnected -> deploy())
            .map(this);
    }

    public Future<Void> stop() {
        return vertx.undeploy(deploymentId).eventually(client::close);
    }

    public String address() {
        return "127.0.0.1:" + verticle.listenPort();
    }

    public Future<RemotingCommand> invoke(int code, Map<String, String> extFields, Buffer body) {
        return client.invoke(address(), RemotingCommand.request(code, extFields, body));
    }

    /** SEND_MESSAGE_V2 with the one-letter header the official client sends; the reply as it came. */
    public Future<RemotingCommand> send(String topic, int queueId, Map<String, String> properties, String body) {
        Map<String, String> header = TestBrokerRequests.sendHeader(topic, queueId, properties);
        header.put("m", "false");
        return invoke(RequestCode.SEND_MESSAGE_V2, header, Buffer.buffer(body));
    }

    /** A send that must succeed; answers the message's commit-log offset (from the offset msgId). */
    public Future<Long> sendOk(String topic, Map<String, String> properties, String body) {
        return send(topic, 0, properties, body).map(HeldMessageBroker::requireSuccess).map(response -> {
            String msgId = response.ext("msgId");
            return Long.parseUnsignedLong(msgId.substring(msgId.length() - 16), 16);
        });
    }

    /** CONSUMER_SEND_MSG_BACK as the official consumer sends it. */
    public Future<RemotingCommand> sendBack(long commitLogOffset, String group, int delayLevel,
                                            int maxReconsumeTimes) {
        Map<String, String> header = new HashMap<>();
        header.put("offset", Long.toString(commitLogOffset));
        header.put("group", group);
        header.put("delayLevel", Integer.toString(delayLevel));
        header.put("originMsgId", "ORIGIN");
        header.put("originTopic", "T");
        header.put("unitMode", "false");
        header.put("maxReconsumeTimes", Integer.toString(maxReconsumeTimes));
        return invoke(RequestCode.CONSUMER_SEND_MSG_BACK, header, null);
    }

    /** PULL_MESSAGE from {@code offset} with subscription "*", no suspend: the stored messages found (maybe none). */
    public Future<List<StoredMessage>> pull(String topic, int queueId, long offset) {
        return invoke(RequestCode.PULL_MESSAGE, TestBrokerRequests.pullHeader(GROUP, topic, queueId, offset), null)
            .map(response -> TestBrokerRequests.pulledMessages(response, topic + "-" + queueId));
    }

    /** Polls the queue from offset 0 until it holds at least {@code count} messages; bounded by {@code maxMs}. */
    public Future<List<StoredMessage>> awaitMessages(String topic, int queueId, int count, long maxMs) {
        return poll(() -> pull(topic, queueId, 0), found -> found.size() >= count, maxMs);
    }

    /** Completes after {@code delayMs} (a Vert.x timer, not a sleep). */
    public Future<Void> pause(long delayMs) {
        return TestBrokerRequests.pause(vertx, delayMs);
    }

    /** Repeats {@code call} on a timer until {@code isDone} holds; fails after {@code maxMs}. */
    public <T> Future<T> poll(Supplier<Future<T>> call, Predicate<T> isDone, long maxMs) {
        return TestBrokerRequests.pollFor(vertx, call, isDone, maxMs);
    }

    public static RemotingCommand requireSuccess(RemotingCommand response) {
        return TestBrokerRequests.requireSuccess(response);
    }

    public static String bodyText(StoredMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    public static List<String> bodyTexts(List<StoredMessage> messages) {
        return messages.stream().map(HeldMessageBroker::bodyText).toList();
    }

    /** Sends "m-0" .. "m-(count - 1)" to queue 0 of {@code topic}, one at a time, each answered before the next. */
    public Future<Void> sendNumbered(String topic, int count) {
        Future<Void> sent = Future.succeededFuture();
        for (int index = 0; index < count; index++) {
            String body = "m-" + index;
            sent = sent.compose(previous -> sendOk(topic, Map.of(), body).mapEmpty());
        }
        return sent;
    }

    /**
     * Sends "m-first", waits for its dispatch (a pull past a queue the dispatcher has not reached yet is told
     * NO_MESSAGE_IN_QUEUE, as by RocketMQ, not held), holds a pull at offset 1 for {@code suspendMs}, then sends
     * "m-woken": the held pull's answer.
     */
    public Future<RemotingCommand> heldPullWokenBySend(String topic, long suspendMs) {
        return sendOk(topic, Map.of(), "m-first")
            .compose(sent -> awaitMessages(topic, 0, 1, 5_000))
            .compose(first -> {
                Map<String, String> header = TestBrokerRequests.pullHeader(GROUP, topic, 0, 1);
                header.put("sysFlag", "6");   // suspend, with the subscription in the request
                header.put("suspendTimeoutMillis", Long.toString(suspendMs));
                Future<RemotingCommand> held = invoke(RequestCode.PULL_MESSAGE, header, null);
                return pause(200).compose(paused -> sendOk(topic, Map.of(), "m-woken")).compose(woken -> held);
            });
    }
}
