package io.vrmq.broker.admin;

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
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A broker deployed for one test (no NameServer, a small store in the test's temp dir) and a remoting client
 * talking to it. Requests the broker sends to the client (220, 40) go to the processors given at start.
 * {@link #with} undeploys the broker when the scenario ends, so that its last file writes are done before JUnit
 * deletes the temp dir (the Vertx instance itself is closed only after that).
 */
final class AdminTestBroker {
    static final String BROKER_NAME = "broker-a";
    static final long POLL_INTERVAL_MS = 20;
    static final int POLL_ATTEMPTS = 250;

    private final Vertx vertx;
    private final BrokerVerticle verticle;
    private final RemotingClient client;

    private AdminTestBroker(Vertx vertx, BrokerVerticle verticle, RemotingClient client) {
        this.vertx = vertx;
        this.verticle = verticle;
        this.client = client;
    }

    static <T> Future<T> with(Vertx vertx, Path storeDir, Function<AdminTestBroker, Future<T>> scenario) {
        return with(vertx, storeDir, ProcessorTable.empty(), scenario);
    }

    static <T> Future<T> with(Vertx vertx, Path storeDir, ProcessorTable clientProcessors,
                              Function<AdminTestBroker, Future<T>> scenario) {
        BrokerVerticle verticle = new BrokerVerticle(config(storeDir));
        RemotingClient client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000),
            new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 3_000, 1_024), clientProcessors,
            RemotingObserver.NONE);
        return vertx.deployVerticle(verticle)
            .compose(deploymentId -> scenario.apply(new AdminTestBroker(vertx, verticle, client))
                .eventually(() -> client.close().eventually(() -> vertx.undeploy(deploymentId))));
    }

    static JsonObject config(Path storeDir) {
        return TestBrokerRequests.config(storeDir);
    }

    String address() {
        return "127.0.0.1:" + verticle.listenPort();
    }

    Future<RemotingCommand> invoke(int code, Map<String, String> extFields, Buffer body) {
        return client.invoke(address(), RemotingCommand.request(code, extFields, body));
    }

    Future<RemotingCommand> invoke(int code, Map<String, String> extFields) {
        return invoke(code, extFields, null);
    }

    /** UPDATE_AND_CREATE_TOPIC with read = write = {@code queueNums}, perm 6; fails unless SUCCESS. */
    Future<RemotingCommand> createTopic(String topic, int queueNums) {
        return invoke(RequestCode.UPDATE_AND_CREATE_TOPIC, Map.of("topic", topic, "defaultTopic", "TBW102",
            "readQueueNums", Integer.toString(queueNums), "writeQueueNums", Integer.toString(queueNums),
            "perm", "6", "topicFilterType", "SINGLE_TAG", "order", "false")).map(AdminTestBroker::requireSuccess);
    }

    /** SEND_MESSAGE_V2 as the official client sends it; answers the commit-log offset from the offset msgId. */
    Future<Long> send(String topic, int queueId, Map<String, String> properties, String body) {
        Map<String, String> header = TestBrokerRequests.sendHeader(topic, queueId, properties);
        return invoke(RequestCode.SEND_MESSAGE_V2, header, Buffer.buffer(body))
            .map(AdminTestBroker::requireSuccess)
            .map(response -> {
                String msgId = response.ext("msgId");
                return Long.parseUnsignedLong(msgId.substring(msgId.length() - 16), 16);
            });
    }

    /** HEART_BEAT of a push consumer in {@code group} subscribed to all of {@code topic}, and of producer "PG". */
    Future<RemotingCommand> heartbeat(String clientId, String group, String topic) {
        String body = TestBrokerRequests.heartbeatBody(clientId, group, topic);
        return invoke(RequestCode.HEART_BEAT, Map.of(), Buffer.buffer(body)).map(AdminTestBroker::requireSuccess);
    }

    /** Completes once the queue's max offset reaches {@code count} (dispatch runs behind the append). */
    Future<Void> awaitDispatched(String topic, int queueId, long count) {
        return poll(() -> invoke(RequestCode.GET_MAX_OFFSET, Map.of("topic", topic, "queueId",
            Integer.toString(queueId))), response -> Long.parseLong(response.ext("offset")) >= count).mapEmpty();
    }

    /** Repeats {@code call} on a timer until {@code isDone} holds; fails after POLL_ATTEMPTS tries. */
    <T> Future<T> poll(Supplier<Future<T>> call, Predicate<T> isDone) {
        return TestBrokerRequests.poll(vertx, call, isDone, POLL_ATTEMPTS, POLL_INTERVAL_MS);
    }

    static RemotingCommand requireSuccess(RemotingCommand response) {
        return TestBrokerRequests.requireSuccess(response);
    }

    static String text(RemotingCommand response) {
        return response.body() == null ? "" : response.body().toString(StandardCharsets.UTF_8);
    }
}
