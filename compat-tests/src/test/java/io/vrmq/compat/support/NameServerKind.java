package io.vrmq.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The NameServer implementations the tests can drive, and how each is started. The tests are written against ours;
 * running them against Apache's ({@code -Dcompat.namesrv=apache}) checks the tests themselves.
 */
public enum NameServerKind {

    /** Ours: {@code java -jar vrmq-namesrv.jar -conf <json>}, the jar named by property {@code vrmq.namesrv.jar}. */
    VRMQ {
        @Override
        RunningNameServer start(Path dir, NameServerSettings settings, int listenPort) {
            return awaitBoot(this, launchVrmq(dir, settings, listenPort), listenPort);
        }
    },

    /** Apache RocketMQ's {@code NamesrvStartup} from this module's test classpath. */
    APACHE {
        @Override
        RunningNameServer start(Path dir, NameServerSettings settings, int listenPort) {
            Path config = write(dir.resolve("namesrv.properties"), String.join("\n",
                "listenPort=" + listenPort,
                "bindAddress=127.0.0.1",
                "kvConfigPath=" + settings.kvConfigPath(),
                "configStorePath=" + dir.resolve("namesrv-store.properties"),
                "scanNotActiveBrokerInterval=" + settings.scanNotActiveBrokerIntervalMs(),
                ""));
            ChildJvm process = ChildJvm.start("apache-namesrv", dir, ApacheJvm.arguments(dir,
                settings.tlsServerMode(), "org.apache.rocketmq.namesrv.NamesrvStartup", "-c", config.toString()),
                Map.of());
            return awaitBoot(this, process, listenPort);
        }
    };

    /** The system property choosing the implementation: "vrmq" (default) or "apache". */
    public static final String SELECTION_PROPERTY = "compat.namesrv";
    public static final String JAR_PROPERTY = "vrmq.namesrv.jar";
    /** Both print this once listening, ours on purpose to match RocketMQ. */
    public static final String BOOT_LINE = "The Name Server boot success";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);

    /** The implementation chosen by {@code -Dcompat.namesrv}. */
    public static NameServerKind selected() {
        return valueOf(System.getProperty(SELECTION_PROPERTY, "vrmq").trim().toUpperCase(Locale.ROOT));
    }

    /** Starts the selected NameServer on a free loopback port, files under {@code dir}, and waits for its boot line. */
    public static RunningNameServer startSelected(Path dir, NameServerSettings settings) {
        return selected().start(dir, settings);
    }

    /** Starts this NameServer on a free loopback port with files under {@code dir} and waits until it listens. */
    public RunningNameServer start(Path dir, NameServerSettings settings) {
        return start(dir, settings, FreePorts.any());
    }

    abstract RunningNameServer start(Path dir, NameServerSettings settings, int listenPort);

    /**
     * Starts our NameServer ({@code java -jar vrmq-namesrv.jar -conf <dir>/namesrv.json}) on {@code listenPort} without
     * waiting for anything: lifecycle tests stop it during its start, or wait for {@link #BOOT_LINE} themselves.
     */
    public static ChildJvm launchVrmq(Path dir, NameServerSettings settings, int listenPort) {
        Path jar = Path.of(System.getProperty(JAR_PROPERTY, "../nameserver-verticle/target/vrmq-namesrv.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("our NameServer jar " + jar.toAbsolutePath() + " is missing: build it"
                + " with `mvn -B -q -pl nameserver-verticle -am -DskipTests package`, or run the tests against"
                + " Apache's with -Dcompat.namesrv=apache");
        }
        Path config = write(dir.resolve("namesrv.json"), String.format(Locale.ROOT, """
            {
              "listenPort": %d,
              "bindAddress": "127.0.0.1",
              "adminPort": 0,
              "adminHost": "127.0.0.1",
              "kvConfigPath": "%s",
              "scanNotActiveBrokerInterval": %d,
              "brokerChannelExpiredTime": %d,
              "tls.server.mode": "%s"%s
            }
            """, listenPort, jsonString(settings.kvConfigPath()), settings.scanNotActiveBrokerIntervalMs(),
            settings.brokerChannelExpiredTimeMs(), settings.tlsServerMode(), extraKeys(settings)));
        // C1 only, as for the brokers: a test NameServer starts in about half the time and lives seconds.
        return ChildJvm.start("vrmq-namesrv", dir, List.of(
            "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-jar",
            jar.toAbsolutePath().toString(), "-conf", config.toString()),
            Map.of());
    }

    private static RunningNameServer awaitBoot(NameServerKind kind, ChildJvm process, int listenPort) {
        try {
            process.awaitLogLine(BOOT_LINE, BOOT_TIMEOUT);
        } catch (AssertionError e) {
            process.stop();
            throw e;
        }
        return new RunningNameServer(kind, process, listenPort);
    }

    private static Path write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }

    /** ",\n  \"key\": value" for each extra key, strings quoted. */
    private static String extraKeys(NameServerSettings settings) {
        StringBuilder keys = new StringBuilder();
        settings.extraConfig().forEach((key, value) -> keys.append(",\n  \"").append(key).append("\": ")
            .append(value instanceof String text ? "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
                : String.valueOf(value)));
        return keys.toString();
    }

    private static String jsonString(Path path) {
        return path.toString().replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
