package io.vrmq.broker;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the broker's in-module test helpers (admin, HTTP, schedule/timer) share: a small-store config on free ports
 * with no NameServer, requests as the official client writes them, and a bounded poll on Vert.x timers.
 */
public final class TestBrokerRequests {
    private static final long POLL_INTERVAL_MS = 50;

    private TestBrokerRequests() {
    }

    /** broker-defaults.json with listenPort 0, loopback, no NameServer, a 4 MiB segment store in {@code storeDir}. */
    public static JsonObject config(Path storeDir) {
        try (InputStream defaults = TestBrokerRequests.class.getResourceAsStream("/broker-defaults.json")) {
            JsonObject config = new JsonObject(new String(defaults.readAllBytes(), StandardCharsets.UTF_8));
            return config.put("listenPort", 0).put("brokerIP1", "127.0.0.1").put("namesrvAddr", "")
                .put("storePathRootDir", storeDir.toString()).put("mappedFileSizeCommitLog", 4 * 1024 * 1024)
                .put("maxMessageSize", 1024 * 1024).put("adminPort", -1).put("grpcListenPort", -1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The one-letter SEND_MESSAGE_V2 header the official client sends, producer group "PG". */
    public static Map<String, String> sendHeader(String topic, int queueId, Map<String, String> properties) {
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
        return header;
    }

    /** A HEART_BEAT body: a push consumer of {@code group} subscribed to all of {@code topic}, and producer "PG". */
    public static String heartbeatBody(String clientId, String group, String topic) {
        return "{\"clientID\":\"" + clientId + "\",\"consumerDataSet\":[{\"consumeFromWhere\":"
            + "\"CONSUME_FROM_LAST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\",\"groupName\":\"" + group
            + "\",\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":[{\"classFilterMode\":false,"
            + "\"codeSet\":[],\"expressionType\":\"TAG\",\"subString\":\"*\",\"subVersion\":1,"
            + "\"tagsSet\":[],\"topic\":\"" + topic + "\"}],\"unitMode\":false}],\"heartbeatFingerprint\":0,"
            + "\"producerDataSet\":[{\"groupName\":\"PG\"}],\"withoutSub\":false}";
    }

    public static RemotingCommand requireSuccess(RemotingCommand response) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new AssertionError("expected SUCCESS, got " + response.code() + ": " + response.remark());
        }
        return response;
    }

    /** PULL_MESSAGE from {@code offset} for {@code group}: up to 32, subscription "*" in the request, no suspend. */
    public static Map<String, String> pullHeader(String group, String topic, int queueId, long offset) {
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", group);
        header.put("topic", topic);
        header.put("queueId", Integer.toString(queueId));
        header.put("queueOffset", Long.toString(offset));
        header.put("maxMsgNums", "32");
        header.put("sysFlag", "4");
        header.put("commitOffset", "0");
        header.put("suspendTimeoutMillis", "0");
        header.put("subscription", "*");
        header.put("subVersion", "0");
        header.put("expressionType", "TAG");
        return header;
    }

    /** The messages a pull answered: none for not found, offset moved or no such topic; other codes fail. */
    public static List<StoredMessage> pulledMessages(RemotingCommand response, String queue) {
        if (response.code() == ResponseCode.SUCCESS) {
            return decodeAll(response.body());
        }
        if (response.code() == ResponseCode.PULL_NOT_FOUND || response.code() == ResponseCode.PULL_OFFSET_MOVED
            || response.code() == ResponseCode.TOPIC_NOT_EXIST) {
            return List.of();
        }
        throw new AssertionError("pull " + queue + ": " + response.code() + " " + response.remark());
    }

    /** A pull body: stored records back to back, as the official client decodes them. */
    public static List<StoredMessage> decodeAll(Buffer body) {
        List<StoredMessage> messages = new ArrayList<>();
        if (body == null) {
            return messages;
        }
        ByteBuffer bytes = ByteBuffer.wrap(body.getBytes());
        int position = 0;
        while (position < bytes.limit()) {
            int size = bytes.getInt(position);
            messages.add(StoredMessage.decode(bytes.slice(position, size)));
            position += size;
        }
        return messages;
    }

    /** Completes after {@code delayMs} (a Vert.x timer, not a sleep). */
    public static Future<Void> pause(Vertx vertx, long delayMs) {
        return vertx.timer(delayMs).mapEmpty();
    }

    /** Repeats {@code call} every 50 ms until {@code isDone} holds; fails after about {@code maxMs}. */
    public static <T> Future<T> pollFor(Vertx vertx, Supplier<Future<T>> call, Predicate<T> isDone, long maxMs) {
        return poll(vertx, call, isDone, (int) Math.max(1, maxMs / POLL_INTERVAL_MS), POLL_INTERVAL_MS);
    }

    /** Repeats {@code call} every {@code intervalMs} until {@code isDone} holds; fails after {@code attempts}. */
    public static <T> Future<T> poll(Vertx vertx, Supplier<Future<T>> call, Predicate<T> isDone, int attempts,
                                     long intervalMs) {
        Promise<T> done = Promise.promise();
        attempt(vertx, call, isDone, attempts, intervalMs, done);
        return done.future();
    }

    private static <T> void attempt(Vertx vertx, Supplier<Future<T>> call, Predicate<T> isDone, int attemptsLeft,
                                    long intervalMs, Promise<T> done) {
        call.get().onComplete(result -> {
            if (result.succeeded() && isDone.test(result.result())) {
                done.complete(result.result());
            } else if (attemptsLeft <= 1) {
                done.fail(result.failed() ? result.cause() : new AssertionError("condition never held: "
                    + result.result()));
            } else {
                vertx.setTimer(intervalMs, id -> attempt(vertx, call, isDone, attemptsLeft - 1, intervalMs, done));
            }
        });
    }
}
