package io.vrmq.compatgrpc.support;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The broker's admin HTTP API, for what the gRPC SDK cannot do itself: create topics (with RocketMQ's
 * {@code message.type} attribute, which the SDK checks sends against) and groups, and count the messages of a topic.
 * Bodies are written by hand (no JSON library on this classpath). Thread-safe.
 */
public final class AdminApi {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern TOTAL = Pattern.compile("\"totalMessages\"\\s*:\\s*(\\d+)");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final String baseUrl;

    public AdminApi(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** A topic of 4 queues taking messages of {@code messageType} (NORMAL, FIFO, DELAY, TRANSACTION or MIXED). */
    public void createTopic(String topic, String messageType) throws IOException, InterruptedException {
        post("/api/v1/topics", "{\"topic\": \"" + topic + "\", \"readQueueNums\": 4, \"writeQueueNums\": 4, "
            + "\"attributes\": \"+message.type=" + messageType + "\"}");
    }

    /** A consumer group; {@code isOrderly} makes it FIFO (consumeMessageOrderly). */
    public void createGroup(String group, int retryMaxTimes, boolean isOrderly) throws IOException,
        InterruptedException {
        post("/api/v1/groups", "{\"groupName\": \"" + group + "\", \"retryMaxTimes\": " + retryMaxTimes
            + ", \"consumeMessageOrderly\": " + isOrderly + "}");
    }

    /** Messages stored in {@code topic} on the broker, -1 when it does not exist. */
    public long totalMessages(String topic) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/topics/"
            + URLEncoder.encode(topic, StandardCharsets.UTF_8).replace("+", "%20") + "/status")).timeout(TIMEOUT)
            .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 404) {
            return -1;
        }
        Matcher total = TOTAL.matcher(response.body());
        if (response.statusCode() != 200 || !total.find()) {
            throw new IOException("topic status " + response.statusCode() + ": " + response.body());
        }
        return Long.parseLong(total.group(1));
    }

    private void post(String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(TIMEOUT).header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("POST " + path + " " + json + ": " + response.statusCode() + " " + response.body());
        }
    }
}
