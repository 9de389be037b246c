package io.vrmq.client.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One of our servers as a child JVM ({@code java -Xmx256m -jar <jar> -conf <json>}), its output copied line by line
 * to a log file by a reader thread that also completes the boot future when the boot line appears, so starting waits
 * on a future instead of polling. {@link #stop()} sends SIGTERM, then SIGKILL after a grace period. The same object
 * starts the server again on the same config. A shutdown hook kills a child the test JVM leaves behind (a crashed or
 * killed test run). Test thread only.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private final String name;
    private final Path jar;
    private final Path config;
    private final Path logFile;
    private final String bootFragment;
    private Process process;

    public ServerProcess(String name, Path jar, Path config, Path logFile, String bootFragment) {
        this.name = name;
        this.jar = jar;
        this.config = config;
        this.logFile = logFile;
        this.bootFragment = bootFragment;
    }

    /** Starts the JVM and returns once it printed its boot line; fails with the log tail if it does not. */
    public void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
            "-jar", jar.toString(), "-conf", config.toString());
        CompletableFuture<Void> booted = new CompletableFuture<>();
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
        Process started = process;
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly, name + "-reaper"));
        Thread reader = new Thread(() -> copyOutput(started, booted), name + "-output");
        reader.setDaemon(true);
        reader.start();
        try {
            booted.get(BOOT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new AssertionError(name + " did not boot: " + e + "\n" + logTail(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while " + name + " booted", e);
        }
    }

    /** SIGTERM and wait for the exit (shutdown hooks run); SIGKILL after the grace period. */
    public void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void copyOutput(Process child, CompletableFuture<Void> booted) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                 StandardCharsets.UTF_8));
             Writer log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                 StandardOpenOption.APPEND)) {
            String line;
            while ((line = lines.readLine()) != null) {
                log.write(line);
                log.write('\n');
                log.flush();
                if (line.contains(bootFragment) && line.contains("boot success")) {
                    booted.complete(null);
                }
            }
        } catch (IOException e) {
            booted.completeExceptionally(e);
        }
        booted.completeExceptionally(new IllegalStateException(name + " exited before its boot line"));
    }

    private String logTail() {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - 60), all.size())));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
