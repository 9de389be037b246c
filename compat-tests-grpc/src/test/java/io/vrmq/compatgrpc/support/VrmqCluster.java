package io.vrmq.compatgrpc.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * One of our NameServers and one of our brokers registered with it, both child JVMs started from the jars named by
 * the {@code vrmq.namesrv.jar} and {@code vrmq.broker.jar} properties, on free loopback ports with their files under
 * a test's temp dir; the broker serves gRPC (RocketMQ 5 SDKs) and its admin HTTP API (to create topics and groups)
 * on free ports too. Plus the clients a test class started, shut down first.
 *
 * <p>Register as a static {@code @RegisterExtension} field and call {@link #start} from {@code @BeforeAll}. After the
 * class everything is closed, newest first (clients, then the broker, then the NameServer, each with SIGTERM); a
 * failing test or lifecycle method gets the tail of both server logs in its message. JUnit calls it on the test
 * thread only.
 */
public final class VrmqCluster implements AfterAllCallback, TestExecutionExceptionHandler,
    LifecycleMethodExecutionExceptionHandler {

    public static final String CLUSTER_NAME = "VrmqGrpcCompatCluster";
    public static final String NAMESRV_JAR_PROPERTY = "vrmq.namesrv.jar";
    public static final String BROKER_JAR_PROPERTY = "vrmq.broker.jar";
    /** Level n waits n seconds, so a delayed-message test takes seconds. */
    public static final String SHORT_DELAY_LEVELS = "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s 12s 13s 14s 15s 16s 17s 18s";
    /** Small enough for a temp dir, large enough for a 4 MiB message. */
    private static final int COMMIT_LOG_FILE_BYTES = 16 * 1024 * 1024;
    private static final String NAMESRV_BOOT_LINE = "The Name Server boot success";
    private static final String BROKER_BOOT_LINE_START = "The broker[";
    private static final String BROKER_BOOT_LINE_END = "boot success";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final List<String> NAMESRV_JVM_OPTIONS = List.of("-Xmx128m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData");
    private static final List<String> BROKER_JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData");

    /** Bounds a hung client close; they take a second or two. */
    private static final long CLIENT_CLOSE_TIMEOUT_SECONDS = 60;
    /** Closes slower than this are printed into the test's output file. */
    private static final long REPORTED_CLOSE_MS = 1_000;

    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();
    private final List<ServerJvm> servers = new ArrayList<>();
    private String brokerName;
    private int namesrvPort;
    private int brokerPort;
    private int grpcPort;
    private int adminPort;
    private String extraBrokerConfig = "";

    /** Starts the NameServer in {@code dir/namesrv} and the broker {@code brokerName} in {@code dir/broker}. */
    public void start(Path dir, String brokerName) {
        start(dir, brokerName, "");
    }

    /**
     * As {@link #start(Path, String)}, the broker's config with {@code extraBrokerConfig} added: JSON members
     * ({@code "key": value}, comma-separated, no trailing comma), e.g. TLS and ACL settings.
     */
    public void start(Path dir, String brokerName, String extraBrokerConfig) {
        this.extraBrokerConfig = extraBrokerConfig.isBlank() ? "" : extraBrokerConfig + ",";
        this.brokerName = brokerName;
        namesrvPort = FreePorts.any();
        Path namesrvDir = dir.resolve("namesrv");
        ServerJvm nameServer = ServerJvm.start("vrmq-namesrv", namesrvDir, NAMESRV_JVM_OPTIONS,
            stableCopy(NAMESRV_JAR_PROPERTY), write(namesrvDir.resolve("namesrv.json"), namesrvConfig(namesrvDir)));
        track(nameServer);
        nameServer.awaitLogLine("'" + NAMESRV_BOOT_LINE + "'", line -> line.contains(NAMESRV_BOOT_LINE),
            BOOT_TIMEOUT);
        brokerPort = FreePorts.forBroker();
        grpcPort = FreePorts.any();
        adminPort = FreePorts.any();
        Path brokerDir = dir.resolve("broker");
        ServerJvm broker = ServerJvm.start("vrmq-broker", brokerDir, BROKER_JVM_OPTIONS,
            stableCopy(BROKER_JAR_PROPERTY), write(brokerDir.resolve("broker.json"), brokerConfig(brokerDir)));
        track(broker);
        broker.awaitLogLine("the broker boot line", line -> line.startsWith(BROKER_BOOT_LINE_START)
            && line.contains(BROKER_BOOT_LINE_END), BOOT_TIMEOUT);
    }

    /** Closes {@code client} (e.g. {@code producer::shutdown}) after the class, before the servers stop. */
    public <T extends AutoCloseable> T closeLater(T client) {
        toClose.push(client);
        return client;
    }

    /** "127.0.0.1:port", the form clients take as namesrvAddr. */
    public String namesrvAddr() {
        return "127.0.0.1:" + namesrvPort;
    }

    /** The address the broker registers with the NameServer, brokerIP1:listenPort. */
    public String brokerAddr() {
        return "127.0.0.1:" + brokerPort;
    }

    /** "127.0.0.1:port" of the broker's gRPC endpoint, the form the 5.x SDKs take as endpoints. */
    public String grpcEndpoints() {
        return "127.0.0.1:" + grpcPort;
    }

    /** The broker's gRPC port. */
    public int grpcPort() {
        return grpcPort;
    }

    /** "http://127.0.0.1:port" of the broker's admin HTTP API. */
    public String adminUrl() {
        return "http://127.0.0.1:" + adminPort;
    }

    public String brokerName() {
        return brokerName;
    }

    /**
     * Closes newest first; the clients registered one after another close concurrently (each has its own
     * connections and threads, and an SDK client's close takes a second or more), a server alone.
     */
    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        List<Exception> failures = new ArrayList<>();
        while (!toClose.isEmpty()) {
            List<AutoCloseable> together = new ArrayList<>();
            together.add(toClose.pop());
            while (!(together.get(0) instanceof ServerJvm) && !toClose.isEmpty()
                && !(toClose.peek() instanceof ServerJvm)) {
                together.add(toClose.pop());
            }
            failures.addAll(closeTogether(together));
        }
        servers.clear();
        if (!failures.isEmpty()) {
            Exception first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    /** Closes each of {@code resources}, concurrently when there are several; the failures. */
    private static List<Exception> closeTogether(List<AutoCloseable> resources) throws InterruptedException {
        long startNanos = System.nanoTime();
        List<Exception> failures = new ArrayList<>();
        if (resources.size() == 1) {
            try {
                resources.get(0).close();
            } catch (Exception e) {
                failures.add(e);
            }
        } else {
            ExecutorService threads = Executors.newFixedThreadPool(resources.size());
            try {
                List<Future<?>> closing = new ArrayList<>();
                for (AutoCloseable resource : resources) {
                    closing.add(threads.submit(() -> {
                        resource.close();
                        return null;
                    }));
                }
                for (Future<?> close : closing) {
                    try {
                        close.get(CLIENT_CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        failures.add(e.getCause() instanceof Exception cause ? cause : e);
                    } catch (TimeoutException e) {
                        failures.add(e);
                    }
                }
            } finally {
                threads.shutdownNow();
            }
        }
        long closeMs = (System.nanoTime() - startNanos) / 1_000_000;
        if (closeMs > REPORTED_CLOSE_MS) {
            System.out.println("closed " + resources + " in " + closeMs + " ms");
        }
        return failures;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw withServerLogs(failure);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure)
        throws Throwable {
        throw withServerLogs(failure);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure)
        throws Throwable {
        throw withServerLogs(failure);
    }

    private void track(ServerJvm server) {
        servers.add(server);
        toClose.push(server);
    }

    private Throwable withServerLogs(Throwable failure) {
        if (failure instanceof TestAbortedException || servers.isEmpty()) {
            return failure;
        }
        StringBuilder message = new StringBuilder(String.valueOf(failure.getMessage()));
        servers.forEach(server -> message.append(server.describeLog()));
        AssertionError withLogs = new AssertionError(message.toString(), failure);
        withLogs.setStackTrace(failure.getStackTrace());
        return withLogs;
    }

    private String namesrvConfig(Path namesrvDir) {
        return String.format(Locale.ROOT, """
            {
              "listenPort": %d,
              "bindAddress": "127.0.0.1",
              "adminPort": -1,
              "kvConfigPath": "%s"
            }
            """, namesrvPort, jsonString(namesrvDir.resolve("kvConfig.json")));
    }

    private String brokerConfig(Path brokerDir) {
        return String.format(Locale.ROOT, """
            {
              %s
              "brokerClusterName": "%s",
              "brokerName": "%s",
              "brokerId": 0,
              "namesrvAddr": "%s",
              "listenPort": %d,
              "bindAddress": "127.0.0.1",
              "brokerIP1": "127.0.0.1",
              "storePathRootDir": "%s",
              "mappedFileSizeCommitLog": %d,
              "autoCreateTopicEnable": true,
              "autoCreateSubscriptionGroup": true,
              "messageDelayLevel": "%s",
              "adminPort": %d,
              "adminHost": "127.0.0.1",
              "grpcListenPort": %d,
              "transactionTimeOut": 1000,
              "transactionCheckInterval": 1000,
              "minInvisibleTimeMillsForRecv": 1000,
              "defaultInvisibleTimeMills": 3000,
              "renewAheadTimeMillis": 2000,
              "renewSchedulePeriodMillis": 500
            }
            """, extraBrokerConfig, CLUSTER_NAME, brokerName, namesrvAddr(), brokerPort, jsonString(brokerDir.toAbsolutePath()),
            COMMIT_LOG_FILE_BYTES, SHORT_DELAY_LEVELS, adminPort, grpcPort);
    }

    private static Path write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }

    /**
     * A private copy of a server jar, checked to be a whole zip: other builds replace the jars while tests run, and
     * a child started from a half-written jar would fail for reasons that have nothing to do with the test.
     */
    private static Path stableCopy(String jarProperty) {
        String configured = System.getProperty(jarProperty);
        if (configured == null) {
            throw new IllegalStateException("system property " + jarProperty + " is not set (the pom passes it)");
        }
        Path source = Path.of(configured);
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException(source.toAbsolutePath() + " is missing: build it with `mvn -B -q -pl"
                + " nameserver-verticle,broker-verticle -am -DskipTests package`");
        }
        try {
            Path copy = Files.createTempFile("vrmq-under-test-", ".jar");
            copy.toFile().deleteOnExit();
            Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
            try (ZipFile zip = new ZipFile(copy.toFile())) {
                if (zip.getEntry("META-INF/MANIFEST.MF") == null) {
                    throw new IllegalStateException(source + " has no manifest: being rebuilt? run again");
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy " + source + " (being rebuilt? run again)", e);
        }
    }

    private static String jsonString(Path path) {
        return path.toString().replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
