package io.vrmq.broker.admin;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
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
        try (InputStream defaults = AdminTestBroker.class.getResourceAsStream("/broker-defaults.json")) {
            JsonObject config = new JsonObject(new String(defaults.readAllBytes(), StandardCharsets.UTF_8));
            return config.put("listenPort", 0).put("brokerIP1", "127.0.0.1").put("namesrvAddr", "")
                .put("storePathRootDir", storeDir.toString()).put("mappedFileSizeCommitLog", 4 * 1024 * 1024)
                .put("maxMessageSize", 1024 * 1024).put("adminPort", -1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        Map<String, String> header = new HashMap<>();
        header.put("a", "PG");
        header.put("b", topic);
        header.put("c", "TBW102");
        header.put("d", "4");
        header.put("e", Integer.toString(queueId));
        header.put("f", "0");
        header.put("g", Long.toString(System.currentTimeMillis()));
        header.put("h", "0");
        header.put("i", MessageProperties.format(properties));
        header.put("j", "0");
        header.put("k", "false");
        return invoke(RequestCode.SEND_MESSAGE_V2, header, Buffer.buffer(body))
            .map(AdminTestBroker::requireSuccess)
            .map(response -> {
                String msgId = response.ext("msgId");
                return Long.parseUnsignedLong(msgId.substring(msgId.length() - 16), 16);
            });
    }

    /** HEART_BEAT of a push consumer in {@code group} subscribed to all of {@code topic}, and of producer "PG". */
    Future<RemotingCommand> heartbeat(String clientId, String group, String topic) {
        String body = "{\"clientID\":\"" + clientId + "\",\"consumerDataSet\":[{\"consumeFromWhere\":"
            + "\"CONSUME_FROM_LAST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\",\"groupName\":\"" + group
            + "\",\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":[{\"classFilterMode\":false,"
            + "\"codeSet\":[],\"expressionType\":\"TAG\",\"subString\":\"*\",\"subVersion\":1,"
            + "\"tagsSet\":[],\"topic\":\"" + topic + "\"}],\"unitMode\":false}],\"heartbeatFingerprint\":0,"
            + "\"producerDataSet\":[{\"groupName\":\"PG\"}],\"withoutSub\":false}";
        return invoke(RequestCode.HEART_BEAT, Map.of(), Buffer.buffer(body)).map(AdminTestBroker::requireSuccess);
    }

    /** Completes once the queue's max offset reaches {@code count} (dispatch runs behind the append). */
    Future<Void> awaitDispatched(String topic, int queueId, long count) {
        return poll(() -> invoke(RequestCode.GET_MAX_OFFSET, Map.of("topic", topic, "queueId",
            Integer.toString(queueId))), response -> Long.parseLong(response.ext("offset")) >= count).mapEmpty();
    }

    /** Repeats {@code call} on a timer until {@code isDone} holds; fails after POLL_ATTEMPTS tries. */
    <T> Future<T> poll(Supplier<Future<T>> call, Predicate<T> isDone) {
        Promise<T> done = Promise.promise();
        attempt(call, isDone, POLL_ATTEMPTS, done);
        return done.future();
    }

    private <T> void attempt(Supplier<Future<T>> call, Predicate<T> isDone, int attemptsLeft, Promise<T> done) {
        call.get().onComplete(result -> {
            if (result.succeeded() && isDone.test(result.result())) {
                done.complete(result.result());
            } else if (attemptsLeft <= 1) {
                done.fail(result.failed() ? result.cause() : new AssertionError("condition never held: "
                    + result.result()));
            } else {
                vertx.setTimer(POLL_INTERVAL_MS, id -> attempt(call, isDone, attemptsLeft - 1, done));
            }
        });
    }

    static RemotingCommand requireSuccess(RemotingCommand response) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new AssertionError("expected SUCCESS, got " + response.code() + ": " + response.remark());
        }
        return response;
    }

    static String text(RemotingCommand response) {
        return response.body() == null ? "" : response.body().toString(StandardCharsets.UTF_8);
    }
}
