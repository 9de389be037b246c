package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A broker deployed for one test (no NameServer, a small store in the test's temp dir, the admin API on a free
 * port), a web client for the admin API and a remoting client for sends, heartbeats and offset commits.
 * {@link #with} undeploys the broker when the scenario ends, so that its last file writes are done before JUnit
 * deletes the temp dir.
 */
final class HttpTestBroker {
    static final long POLL_INTERVAL_MS = 20;
    static final int POLL_ATTEMPTS = 250;

    private final Vertx vertx;
    private final BrokerVerticle verticle;
    private final RemotingClient client;
    private final WebClient web;

    private HttpTestBroker(Vertx vertx, BrokerVerticle verticle, RemotingClient client, WebClient web) {
        this.vertx = vertx;
        this.verticle = verticle;
        this.client = client;
        this.web = web;
    }

    static <T> Future<T> with(Vertx vertx, Path storeDir, Function<HttpTestBroker, Future<T>> scenario) {
        return with(vertx, storeDir, "", scenario);
    }

    static <T> Future<T> with(Vertx vertx, Path storeDir, String adminToken,
                              Function<HttpTestBroker, Future<T>> scenario) {
        return with(vertx, config(storeDir).put("adminToken", adminToken), scenario);
    }

    /** A broker with {@code brokerConfig} (start from {@link #config}). */
    static <T> Future<T> with(Vertx vertx, JsonObject brokerConfig, Function<HttpTestBroker, Future<T>> scenario) {
        BrokerVerticle verticle = new BrokerVerticle(brokerConfig);
        RemotingClient client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000),
            new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 3_000, 1_024), ProcessorTable.empty(),
            RemotingObserver.NONE);
        return vertx.deployVerticle(verticle)
            .compose(deploymentId -> {
                WebClient web = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
                    .setDefaultPort(verticle.adminPort()));
                return scenario.apply(new HttpTestBroker(vertx, verticle, client, web))
                    .eventually(() -> {
                        web.close();
                        return client.close().eventually(() -> vertx.undeploy(deploymentId));
                    });
            });
    }

    static JsonObject config(Path storeDir) {
        return TestBrokerRequests.config(storeDir).put("adminPort", 0);
    }

    int adminPort() {
        return verticle.adminPort();
    }

    Future<HttpResponse<Buffer>> get(String path) {
        return web.get(path).send();
    }

    Future<HttpResponse<Buffer>> post(String path, JsonObject body) {
        return web.post(path).sendJsonObject(body);
    }

    Future<HttpResponse<Buffer>> delete(String path) {
        return web.delete(path).send();
    }

    /** A request with {@code Authorization: Bearer <token>} (no header when token is null). */
    Future<HttpResponse<Buffer>> withToken(HttpMethod method, String path, String token, JsonObject body) {
        HttpRequest<Buffer> request = web.request(method, path);
        if (token != null) {
            request.bearerTokenAuthentication(token);
        }
        return body == null ? request.send() : request.sendJsonObject(body);
    }

    /** A request with {@code Authorization: Basic user:password} (no header when user is null). */
    Future<HttpResponse<Buffer>> asUser(HttpMethod method, String path, String user, String password,
                                        JsonObject body) {
        HttpRequest<Buffer> request = web.request(method, path);
        if (user != null) {
            request.basicAuthentication(user, password);
        }
        return body == null ? request.send() : request.sendJsonObject(body);
    }

    /** POST /api/v1/topics with read = write = {@code queueNums}; fails unless 2xx. */
    Future<JsonObject> createTopic(String topic, int queueNums) {
        return post("/api/v1/topics", new JsonObject().put("topic", topic).put("readQueueNums", queueNums)
            .put("writeQueueNums", queueNums)).map(HttpTestBroker::requireOk);
    }

    Future<RemotingCommand> invoke(int code, Map<String, String> extFields, Buffer body) {
        return client.invoke("127.0.0.1:" + verticle.listenPort(), RemotingCommand.request(code, extFields, body));
    }

    /** SEND_MESSAGE_V2 as the official client sends it; answers the offset msgId. */
    Future<String> send(String topic, int queueId, Map<String, String> properties, Buffer body) {
        Map<String, String> header = TestBrokerRequests.sendHeader(topic, queueId, properties);
        return invoke(RequestCode.SEND_MESSAGE_V2, header, body)
            .map(HttpTestBroker::requireSuccess)
            .map(response -> response.ext("msgId"));
    }

    Future<String> send(String topic, int queueId, String body) {
        return send(topic, queueId, Map.of("WAIT", "true"), Buffer.buffer(body));
    }

    /** UPDATE_CONSUMER_OFFSET of {@code group} on one queue. */
    Future<RemotingCommand> commitOffset(String group, String topic, int queueId, long offset) {
        return invoke(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup", group, "topic", topic,
            "queueId", Integer.toString(queueId), "commitOffset", Long.toString(offset)), null)
            .map(HttpTestBroker::requireSuccess);
    }

    /** PULL_MESSAGE without suspension and with an all-tags subscription. */
    Future<RemotingCommand> pull(String group, String topic, int queueId, long queueOffset) {
        return invoke(RequestCode.PULL_MESSAGE, Map.of("consumerGroup", group, "topic", topic,
            "queueId", Integer.toString(queueId), "queueOffset", Long.toString(queueOffset), "maxMsgNums", "32",
            "sysFlag", "4", "subscription", "*", "subVersion", "1", "expressionType", "TAG"), null);
    }

    /** HEART_BEAT of a push consumer in {@code group} subscribed to all of {@code topic}. */
    Future<RemotingCommand> heartbeat(String clientId, String group, String topic) {
        String body = TestBrokerRequests.heartbeatBody(clientId, group, topic);
        return invoke(RequestCode.HEART_BEAT, Map.of(), Buffer.buffer(body)).map(HttpTestBroker::requireSuccess);
    }

    /** Completes once the queue's max offset reaches {@code count} (dispatch runs behind the append). */
    Future<Void> awaitDispatched(String topic, int queueId, long count) {
        return poll(() -> invoke(RequestCode.GET_MAX_OFFSET, Map.of("topic", topic, "queueId",
            Integer.toString(queueId)), null), response -> Long.parseLong(response.ext("offset")) >= count)
            .mapEmpty();
    }

    /** Repeats {@code call} on a timer until {@code isDone} holds; fails after POLL_ATTEMPTS tries. */
    <T> Future<T> poll(Supplier<Future<T>> call, Predicate<T> isDone) {
        return TestBrokerRequests.poll(vertx, call, isDone, POLL_ATTEMPTS, POLL_INTERVAL_MS);
    }

    static JsonObject requireOk(HttpResponse<Buffer> response) {
        if (response.statusCode() / 100 != 2) {
            throw new AssertionError("expected 2xx, got " + response.statusCode() + ": " + response.bodyAsString());
        }
        return response.bodyAsJsonObject();
    }

    /** The error form: the given status, and a JSON body {"error": non-empty text, "status": the same status}. */
    static JsonObject assertError(HttpResponse<Buffer> response, int status) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + ", got " + response.statusCode() + ": "
                + response.bodyAsString());
        }
        JsonObject body = response.bodyAsJsonObject();
        if (body.getInteger("status") != status || body.getString("error", "").isEmpty()
            || !response.getHeader("content-type").startsWith("application/json")) {
            throw new AssertionError("not the error form: " + response.bodyAsString());
        }
        return body;
    }

    static RemotingCommand requireSuccess(RemotingCommand response) {
        return TestBrokerRequests.requireSuccess(response);
    }
}
