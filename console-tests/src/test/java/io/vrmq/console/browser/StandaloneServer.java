package io.vrmq.console.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The standalone jar the reactor built (a NameServer and a broker in one JVM), started as a child process on free
 * ports with its admin APIs (and so the console) on loopback, the way a user starts it. Output goes to a log file in
 * the data directory; failures quote its tail. {@link #close} sends SIGTERM and waits, then SIGKILL. Used from the
 * test thread only.
 */
final class StandaloneServer implements AutoCloseable {
    private static final String JAR_PROPERTY = "vrmq.standalone.jar";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final long POLL_MS = 100;

    private final Process process;
    private final Path log;
    final int namesrvPort;
    final int namesrvAdminPort;
    final int brokerAdminPort;

    private StandaloneServer(Process process, Path log, int namesrvPort, int namesrvAdminPort, int brokerAdminPort) {
        this.process = process;
        this.log = log;
        this.namesrvPort = namesrvPort;
        this.namesrvAdminPort = namesrvAdminPort;
        this.brokerAdminPort = brokerAdminPort;
    }

    /** With the broker's {@code adminToken} set, so every write through the console needs it. */
    static StandaloneServer start(Path dir, String brokerAdminToken) throws IOException {
        return start(dir, brokerAdminToken, "");
    }

    /**
     * Like {@link #start(Path, String)}, the broker's config with {@code moreBrokerKeys} too (JSON members without the
     * braces, such as {@code "authenticationEnabled": true}).
     */
    static StandaloneServer start(Path dir, String brokerAdminToken, String moreBrokerKeys) throws IOException {
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("no standalone jar at " + JAR_PROPERTY + "=" + jar
                + ": build it with the reactor (mvn -B -pl standalone,console-tests -am verify)");
        }
        int namesrvPort = freePort();
        int namesrvAdminPort = freePort();
        int brokerPort = freeBrokerPort();
        int brokerAdminPort = freePort();
        Path namesrvConf = Files.writeString(dir.resolve("namesrv.json"), "{\"listenPort\": " + namesrvPort
            + ", \"adminPort\": " + namesrvAdminPort + ", \"kvConfigPath\": \"" + dir.resolve("kv.json") + "\"}");
        Path brokerConf = Files.writeString(dir.resolve("broker.json"), "{\"listenPort\": " + brokerPort
            + ", \"namesrvAddr\": \"127.0.0.1:" + namesrvPort + "\", \"brokerIP1\": \"127.0.0.1\", "
            + "\"storePathRootDir\": \"" + dir.resolve("store") + "\", \"mappedFileSizeCommitLog\": 16777216, "
            + "\"adminPort\": " + brokerAdminPort + ", \"adminToken\": \"" + brokerAdminToken + "\""
            + (moreBrokerKeys.isBlank() ? "" : ", " + moreBrokerKeys) + "}");
        Path log = dir.resolve("standalone.log");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar, "-namesrv-conf", namesrvConf.toString(),
            "-broker-conf", brokerConf.toString())
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        StandaloneServer server = new StandaloneServer(process, log, namesrvPort, namesrvAdminPort, brokerAdminPort);
        server.awaitLog("boot success. serializeType=JSON and name server is 127.0.0.1:" + namesrvPort);
        return server;
    }

    String namesrvAddr() {
        return "127.0.0.1:" + namesrvPort;
    }

    /** The console as the NameServer serves it. */
    String consoleUrl() {
        return "http://127.0.0.1:" + namesrvAdminPort + "/";
    }

    private void awaitLog(String fragment) {
        long deadline = System.nanoTime() + BOOT_TIMEOUT.toNanos();
        while (!logText().contains(fragment)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the standalone server did not log '" + fragment + "'"
                    + (process.isAlive() ? " within " + BOOT_TIMEOUT : " (exited " + process.exitValue() + ")")
                    + "\n" + tail());
            }
            pause();
        }
    }

    String tail() {
        List<String> lines = logText().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private String logText() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** The broker also listens on listenPort - 2 (fast channel) and listenPort + 1 (HA). */
    private static int freeBrokerPort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = freePort();
            if (port > 1026 && isFree(port - 2) && isFree(port + 1)) {
                return port;
            }
        }
        throw new IllegalStateException("no free broker port triple");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the server", e);
        }
    }
}
