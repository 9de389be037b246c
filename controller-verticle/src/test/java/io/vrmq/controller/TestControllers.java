package io.vrmq.controller;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Controller nodes for tests: configs for an n-node group on free loopback ports with stores in the test's temp
 * directory, and starting/stopping a node as a verticle of the test's Vertx (each with its own meter registry, as
 * separate processes would have). Test thread or event loop; nothing shared between tests.
 */
final class TestControllers {
    static final String HOST = "127.0.0.1";
    /** Short Raft timeouts: in-JVM nodes on loopback, and the tests should not wait seconds for each election. */
    static final long ELECTION_TIMEOUT_MIN_MS = 500;
    static final long ELECTION_TIMEOUT_MAX_MS = 1000;

    private TestControllers() {
    }

    /** The embedded defaults, as the launcher reads them without a file. */
    static JsonObject defaults() {
        try (InputStream in = TestControllers.class.getClassLoader()
            .getResourceAsStream(ControllerMain.DEFAULTS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + ControllerMain.DEFAULTS_RESOURCE);
            }
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One config per node of an {@code nodeCount}-node group, ports picked now, stores under {@code dir}. */
    static List<JsonObject> group(Path dir, int nodeCount) {
        List<Integer> ports = freePorts(nodeCount * 2);
        String peers = IntStream.range(0, nodeCount).mapToObj(i -> "n" + i + "-" + HOST + ":" + ports.get(i))
            .collect(Collectors.joining(";"));
        String raftPeers = IntStream.range(0, nodeCount).mapToObj(i -> "n" + i + "-" + HOST + ":"
            + ports.get(nodeCount + i)).collect(Collectors.joining(";"));
        List<JsonObject> configs = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            Path nodeDir = dir.resolve("n" + i);
            configs.add(defaults()
                .put("controllerDLegerGroup", "test-group")
                .put("controllerDLegerPeers", peers)
                .put("controllerDLegerSelfId", "n" + i)
                .put("controllerRaftPeers", raftPeers)
                .put("controllerStorePath", nodeDir.resolve("store").toString())
                .put("configStorePath", nodeDir.resolve("controller.properties").toString())
                .put("bindAddress", HOST)
                .put("adminPort", 0)
                .put("adminHost", HOST)
                .put("raftElectionTimeoutMinMs", ELECTION_TIMEOUT_MIN_MS)
                .put("raftElectionTimeoutMaxMs", ELECTION_TIMEOUT_MAX_MS)
                .put("shutdownGraceMs", 100L));
        }
        return configs;
    }

    static Future<Node> start(Vertx vertx, JsonObject config) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ControllerVerticle verticle = new ControllerVerticle(config, registry);
        return vertx.deployVerticle(verticle).map(id -> new Node(vertx, config, verticle, registry, id));
    }

    static List<Integer> freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                socket.bind(new InetSocketAddress(HOST, 0));
                sockets.add(socket);
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        } finally {
            sockets.forEach(socket -> {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // only a probe
                }
            });
        }
    }

    /** A started node. */
    record Node(Vertx vertx, JsonObject config, ControllerVerticle verticle, PrometheusMeterRegistry registry,
                String deploymentId) {

        /** "127.0.0.1:port", what brokers put in controllerAddr. */
        String address() {
            return HOST + ":" + verticle.remotingPort();
        }

        String selfId() {
            return config.getString("controllerDLegerSelfId");
        }

        int adminPort() {
            return verticle.adminPort();
        }

        boolean isLeaderReady() {
            return verticle.raftStatus().isLeaderReady();
        }

        Future<Void> stop() {
            return vertx.undeploy(deploymentId);
        }
    }
}
