package io.vrmq.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Our controller (RocketMQ 5 controller mode) as a child JVM: {@code java -jar vrmq-controller.jar -conf
 * controller.json}, the jar named by the {@code vrmq.controller.jar} property. One node or a group of nodes on free
 * loopback ports, each with its store and persisted settings in its own directory. {@link #start()} after
 * {@link #stop()} or {@link #kill()} brings the node back on the same ports and store. Test thread only.
 */
public final class VrmqController implements AutoCloseable {

    public static final String JAR_PROPERTY = "vrmq.controller.jar";
    /** RocketMQ's controller boot line, which ours prints too once it listens. */
    public static final String BOOT_LINE = "The Controller Server boot success";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(30);
    /** Quicker than the defaults (5 s): a test waits for the controller's scans, never the other way round. */
    private static final long SCAN_INTERVAL_MS = 1_000;

    private final String selfId;
    private final Path dir;
    private final Path config;
    private final int controllerPort;
    private final int adminPort;
    private final boolean isAdminTls;
    private ChildJvm process;

    private VrmqController(String selfId, Path dir, Path config, int controllerPort, int adminPort,
                           boolean isAdminTls) {
        this.isAdminTls = isAdminTls;
        this.selfId = selfId;
        this.dir = dir;
        this.config = config;
        this.controllerPort = controllerPort;
        this.adminPort = adminPort;
    }

    /** One node, n0, started and leading. */
    public static VrmqController startSingle(Path dir, Map<String, ?> extraConfig) {
        VrmqController node = startGroup(dir, 1, extraConfig).get(0);
        node.awaitLeaderReady();
        return node;
    }

    /**
     * {@code nodeCount} nodes n0, n1, ... of one group, each in {@code dir/n<i>}, all started (not waiting for a
     * leader: see {@link #awaitLeaderReady()}). {@code extraConfig}: further controller.json keys for every node.
     */
    public static List<VrmqController> startGroup(Path dir, int nodeCount, Map<String, ?> extraConfig) {
        List<Integer> controllerPorts = IntStream.range(0, nodeCount).mapToObj(i -> FreePorts.any()).toList();
        List<Integer> raftPorts = IntStream.range(0, nodeCount).mapToObj(i -> FreePorts.any()).toList();
        String peers = peers(controllerPorts);
        String raftPeers = peers(raftPorts);
        List<VrmqController> nodes = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            String selfId = "n" + i;
            Path nodeDir = dir.resolve(selfId);
            int adminPort = FreePorts.any();
            StringBuilder json = new StringBuilder("{\n");
            entry(json, "controllerDLegerGroup", "compat-controller");
            entry(json, "controllerDLegerPeers", peers);
            entry(json, "controllerDLegerSelfId", selfId);
            entry(json, "controllerRaftPeers", raftPeers);
            entry(json, "controllerStorePath", nodeDir.resolve("store").toString());
            entry(json, "configStorePath", nodeDir.resolve("controller.properties").toString());
            entry(json, "bindAddress", "127.0.0.1");
            entry(json, "adminHost", "127.0.0.1");
            entry(json, "adminPort", adminPort);
            entry(json, "scanNotActiveBrokerInterval", SCAN_INTERVAL_MS);
            entry(json, "scanInactiveMasterInterval", SCAN_INTERVAL_MS);
            extraConfig.forEach((key, value) -> entry(json, key, value));
            json.setLength(json.length() - 2);
            json.append("\n}\n");
            Path config = write(nodeDir.resolve("controller.json"), json.toString());
            VrmqController node = new VrmqController(selfId, nodeDir, config, controllerPorts.get(i), adminPort,
                "true".equals(String.valueOf(extraConfig.get("adminTls"))));
            node.start();
            nodes.add(node);
        }
        return nodes;
    }

    /** Starts (again) on the same ports and store; returns once it printed its boot line. */
    public void start() {
        launch();
        awaitBoot();
    }

    /** Starts the JVM (again) without waiting for anything; the previous process must have exited. */
    public ChildJvm launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(this + " is still running");
        }
        Path jar = Path.of(System.getProperty(JAR_PROPERTY, "../controller-verticle/target/vrmq-controller.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("our controller jar " + jar.toAbsolutePath() + " is missing: build it with"
                + " `mvn -B -q -pl controller-verticle -am -DskipTests package`");
        }
        process = ChildJvm.start("vrmq-controller-" + selfId, dir, List.of("-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-jar", jar.toAbsolutePath().toString(), "-conf", config.toString()), Map.of());
        return process;
    }

    /** Waits for the boot line of the process {@link #launch()} started; kills it if none comes. */
    public void awaitBoot() {
        try {
            process.awaitLogLine(BOOT_LINE, BOOT_TIMEOUT);
        } catch (AssertionError e) {
            process.kill();
            throw e;
        }
    }

    /** Waits until this node is the Raft leader and has applied everything before its term (its admin API says). */
    public void awaitLeaderReady() {
        Await.until(this + " leads", LEADER_TIMEOUT, () -> adminGet("/api/v1/controller")
            .contains("\"isLeaderReady\":true"));
    }

    /** GET on this node's admin HTTP API (HTTPS, trusting its certificate, when adminTls is on); the body as text. */
    public String adminGet(String path) throws IOException, InterruptedException {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (isAdminTls) {
            builder.sslContext(TrustingSsl.context());
        }
        HttpClient client = builder.build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create((isAdminTls ? "https" : "http")
            + "://127.0.0.1:" + adminPort + path)).timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    /** "127.0.0.1:port" of the controller protocol: what brokers put in controllerAddr and mqadmin in -a. */
    public String address() {
        return "127.0.0.1:" + controllerPort;
    }

    public String selfId() {
        return selfId;
    }

    public int adminPort() {
        return adminPort;
    }

    public ChildJvm process() {
        return process;
    }

    /** SIGTERM and wait: Raft and the listeners close cleanly. */
    public void stop() {
        if (process != null) {
            process.stop();
        }
    }

    /** SIGKILL: nothing closes cleanly. */
    public void kill() {
        if (process != null && process.isAlive()) {
            process.kill();
        }
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "vrmq controller " + selfId + " at " + address();
    }

    private static String peers(List<Integer> ports) {
        return IntStream.range(0, ports.size()).mapToObj(i -> "n" + i + "-127.0.0.1:" + ports.get(i))
            .collect(Collectors.joining(";"));
    }

    private static void entry(StringBuilder json, String key, Object value) {
        String text = value instanceof Number || value instanceof Boolean ? value.toString()
            : "\"" + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        json.append(String.format(Locale.ROOT, "  \"%s\": %s,%n", key, text));
    }

    private static Path write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }
}
