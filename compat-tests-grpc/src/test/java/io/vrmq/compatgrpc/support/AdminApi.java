package io.vrmq.compatgrpc.support;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
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
    private final String adminToken;

    public AdminApi(String baseUrl) {
        this(baseUrl, "");
    }

    /** @param adminToken the broker's adminToken, sent as a bearer token on writes ("" for none) */
    public AdminApi(String baseUrl, String adminToken) {
        this.baseUrl = baseUrl;
        this.adminToken = adminToken;
    }

    /** An ACL 2.0 user ({@code userType} Normal or Super). */
    public void createUser(String username, String password, String userType) throws IOException,
        InterruptedException {
        post("/api/v1/users", "{\"username\": \"" + username + "\", \"password\": \"" + password
            + "\", \"userType\": \"" + userType + "\"}");
    }

    /** An Allow entry for {@code User:username} on each resource ("Topic:t", "Group:g") with {@code actions}. */
    public void allow(String username, List<String> resources, List<String> actions) throws IOException,
        InterruptedException {
        StringBuilder entries = new StringBuilder();
        for (String resource : resources) {
            entries.append(entries.isEmpty() ? "" : ", ").append("{\"resource\": \"").append(resource)
                .append("\", \"actions\": [\"").append(String.join("\", \"", actions))
                .append("\"], \"decision\": \"Allow\"}");
        }
        post("/api/v1/acls", "{\"subject\": \"User:" + username + "\", \"policies\": [{\"policyType\": "
            + "\"Custom\", \"entries\": [" + entries + "]}]}");
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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT)
            .header("content-type", "application/json");
        if (!adminToken.isEmpty()) {
            request.header("Authorization", "Bearer " + adminToken);
        }
        HttpResponse<String> response = http.send(request
            .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("POST " + path + " " + json + ": " + response.statusCode() + " " + response.body());
        }
    }
}
