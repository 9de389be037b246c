package io.vrmq.compat.broker.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.FreePorts;

/**
 * Our broker as a child JVM: {@code java -Xmx256m -jar vrmq-broker.jar -conf broker.json}, the jar named by the
 * {@code vrmq.broker.jar} property, the way users run it. The listen port (and the fast channel at listenPort - 2)
 * is chosen once, so {@link #start()} after {@link #stop()} or {@link #kill()} brings the same broker back on the
 * same store and address. Test thread only.
 */
public final class VrmqBroker implements AutoCloseable {

    public static final String JAR_PROPERTY = "vrmq.broker.jar";
    /** RocketMQ's boot line, which ours prints too once it listens and has registered. */
    public static final String BOOT_LINE_START = "The broker[";
    public static final String BOOT_LINE_END = "boot success";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final int JAR_COPY_ATTEMPTS = 10;
    private static final String HA_LISTEN_PORT_KEY = "haListenPort";
    private static final long JAR_COPY_RETRY_MS = 1_000;
    private static Path stableJar;

    private final BrokerSettings settings;
    private final int listenPort;
    private final Path config;
    private final Map<String, ?> extraConfig;
    private ChildJvm process;

    private VrmqBroker(BrokerSettings settings, int listenPort, Path config, Map<String, ?> extraConfig) {
        this.settings = settings;
        this.listenPort = listenPort;
        this.config = config;
        this.extraConfig = Map.copyOf(extraConfig);
    }

    /** Writes the config for a free port and starts the broker; returns once it printed its boot line. */
    public static VrmqBroker start(BrokerSettings settings) {
        return start(settings, Map.of());
    }

    /**
     * Like {@link #start(BrokerSettings)}, with further broker.json keys (a master/slave role, segment sizes):
     * {@code extraConfig} is written after the settings' keys and replaces any of them it names. Values are strings,
     * numbers or booleans.
     */
    public static VrmqBroker start(BrokerSettings settings, Map<String, ?> extraConfig) {
        int listenPort = FreePorts.forBroker();
        Path config = writeConfig(settings, listenPort, extraConfig);
        VrmqBroker broker = new VrmqBroker(settings, listenPort, config, extraConfig);
        broker.start();
        return broker;
    }

    /** Starts (again) on the same port and store; the previous process must have exited. */
    public void start() {
        launch();
        awaitBoot();
    }

    /**
     * Starts the JVM (again) on the same port and store without waiting for anything: a test that stops it during its
     * start then uses {@link #process()}, and {@link #awaitBoot()} if it wants it up. The previous process must have
     * exited.
     */
    public ChildJvm launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(this + " is still running");
        }
        process = ChildJvm.start("vrmq-broker", settings.storePathRootDir(), List.of(
            "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
            "-jar", jar().toString(), "-conf", config.toString()), Map.of());
        return process;
    }

    /** Waits for the boot line of the process {@link #launch()} started; kills it if none comes. */
    public void awaitBoot() {
        try {
            process.awaitLogLine(BOOT_LINE_END, BOOT_TIMEOUT);
        } catch (AssertionError e) {
            process.kill();
            throw new AssertionError(this + ": " + e.getMessage(), e);
        }
    }

    /** SIGTERM and wait: the broker unregisters, persists offsets and closes its store. */
    public void stop() {
        if (process != null) {
            process.stop();
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or unregistered. */
    public void kill() {
        process.kill();
    }

    /** "127.0.0.1:listenPort", the address the broker registers and clients dial. */
    public String address() {
        return "127.0.0.1:" + listenPort;
    }

    public int listenPort() {
        return listenPort;
    }

    /**
     * "127.0.0.1:haPort", where a master accepts slaves: {@code haListenPort} when the extra config sets one above 0,
     * else listenPort + 1 (the broker's rule for haListenPort 0; {@link FreePorts#forBroker()} checked it is free).
     */
    public String haAddress() {
        Object configured = extraConfig.get(HA_LISTEN_PORT_KEY);
        int haPort = configured instanceof Number port && port.intValue() > 0 ? port.intValue() : listenPort + 1;
        return "127.0.0.1:" + haPort;
    }

    public String brokerName() {
        return settings.brokerName();
    }

    public BrokerSettings settings() {
        return settings;
    }

    public ChildJvm process() {
        return process;
    }

    /** The OS process id of the running broker JVM, found among this JVM's descendants by its config path. */
    public long pid() {
        String configPath = config.toString();
        return ProcessHandle.current().descendants()
            .filter(ProcessHandle::isAlive)
            .filter(handle -> handle.info().commandLine().map(line -> line.contains(configPath)).orElse(false))
            .mapToLong(ProcessHandle::pid)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no running child process with " + configPath));
    }

    /** The broker JVM's current thread count, the {@code Threads:} line of /proc/<pid>/status. */
    public int threadCount() {
        Path status = Path.of("/proc", Long.toString(pid()), "status");
        try {
            return Files.readAllLines(status).stream()
                .filter(line -> line.startsWith("Threads:"))
                .map(line -> Integer.parseInt(line.substring("Threads:".length()).trim()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no Threads: line in " + status));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + status, e);
        }
    }

    public String describeLog() {
        return process == null ? "" : process.describeLog();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "vrmq broker " + settings.brokerName() + " at " + address();
    }

    private static Path writeConfig(BrokerSettings settings, int listenPort, Map<String, ?> extraConfig) {
        Path dir = settings.storePathRootDir();
        Map<String, Object> keys = new LinkedHashMap<>();
        keys.put("brokerClusterName", settings.brokerClusterName());
        keys.put("brokerName", settings.brokerName());
        keys.put("brokerId", 0);
        keys.put("namesrvAddr", settings.namesrvAddr());
        keys.put("listenPort", listenPort);
        keys.put("bindAddress", "127.0.0.1");
        keys.put("brokerIP1", "127.0.0.1");
        keys.put("storePathRootDir", dir.toAbsolutePath().toString());
        keys.put("flushDiskType", settings.flushDiskType());
        keys.put("mappedFileSizeCommitLog", BrokerSettings.COMMIT_LOG_FILE_BYTES);
        keys.put("maxMessageSize", BrokerSettings.MAX_MESSAGE_BYTES);
        keys.put("autoCreateTopicEnable", true);
        keys.put("autoCreateSubscriptionGroup", true);
        keys.put("messageDelayLevel", settings.messageDelayLevel());
        keys.put("adminPort", -1);
        keys.put("grpcListenPort", -1);
        keys.put("registerNameServerPeriod", settings.registerNameServerPeriodMs());
        keys.putAll(extraConfig);
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve("broker.json"), toJson(keys));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the broker config in " + dir, e);
        }
    }

    /** A flat JSON object: strings quoted, numbers and booleans as they print. */
    private static String toJson(Map<String, Object> keys) {
        StringBuilder json = new StringBuilder("{\n");
        String separator = "";
        for (Map.Entry<String, Object> entry : keys.entrySet()) {
            Object value = entry.getValue();
            String text = value instanceof String string ? "\"" + jsonString(string) + "\"" : String.valueOf(value);
            json.append(separator).append("  \"").append(entry.getKey()).append("\": ").append(text);
            separator = ",\n";
        }
        return json.append("\n}\n").toString();
    }

    /**
     * A private copy of the broker jar for this test JVM, checked to be a whole zip: other engineers rebuild
     * the jar while tests run, and a child started from a half-written jar would fail for reasons that have nothing to do with the test.
     */
    private static synchronized Path jar() {
        if (stableJar != null) {
            return stableJar;
        }
        Path source = Path.of(System.getProperty(JAR_PROPERTY, "../broker-verticle/target/vrmq-broker.jar"));
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("our broker jar " + source.toAbsolutePath() + " is missing: build it with"
                + " `mvn -B -q -pl nameserver-verticle,broker-verticle -am -DskipTests package`");
        }
        IOException lastFailure = null;
        for (int attempt = 1; attempt <= JAR_COPY_ATTEMPTS; attempt++) {
            try {
                Path copy = Files.createTempFile("vrmq-broker-under-test-", ".jar");
                copy.toFile().deleteOnExit();
                Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
                try (ZipFile zip = new ZipFile(copy.toFile())) {
                    if (zip.getEntry("META-INF/MANIFEST.MF") != null) {
                        stableJar = copy;
                        return copy;
                    }
                }
            } catch (IOException e) {
                lastFailure = e;    // a rebuild was replacing the jar at that moment: copy again
            }
            pause(JAR_COPY_RETRY_MS);
        }
        throw new IllegalStateException("could not copy a complete " + source + " in " + JAR_COPY_ATTEMPTS
            + " attempts", lastFailure);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String jsonString(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
