package io.vrmq.compatgrpc.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One of our servers running as a child JVM ({@code java -jar <jar> -conf <json>}), stdout and stderr in one log
 * file in its work dir.
 *
 * <p>{@link #awaitLogLine} waits for a boot line with a deadline and fails early if the child exits; every failure
 * message ends with the tail of the log. {@link #close()} sends SIGTERM, as an operator stops a server (so shutdown
 * hooks run: the broker unregisters and persists), and SIGKILLs a child that outlives the grace period. Test thread
 * only.
 */
public final class ServerJvm implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration KILL_GRACE = Duration.ofSeconds(10);
    private static final long LOG_POLL_INTERVAL_MS = 50;
    private static final int LOG_TAIL_LINES = 60;

    private final String name;
    private final Process process;
    private final Path logFile;

    private ServerJvm(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /** Starts {@code java <jvmOptions> -jar <jar> -conf <config>} in {@code workDir}, output to {@code <name>.log}. */
    public static ServerJvm start(String name, Path workDir, List<String> jvmOptions, Path jar, Path config) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "-conf", config.toString()));
        Path logFile = workDir.resolve(name + ".log");
        try {
            Files.createDirectories(workDir);
            Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
            return new ServerJvm(name, process, logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + command, e);
        }
    }

    /** Waits until a log line matches {@code isBootLine}; on a timeout or an early exit, kills the child and fails. */
    public void awaitLogLine(String description, Predicate<String> isBootLine, Duration timeout) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        while (log().lines().noneMatch(isBootLine)) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before logging "
                    + description + describeLog());
            }
            if (System.nanoTime() > deadlineNanos) {
                close();
                throw new AssertionError(name + " did not log " + description + " within " + timeout
                    + describeLog());
            }
            pause();
        }
    }

    /** The last lines of the log under a heading naming the child, for failure messages. */
    public String describeLog() {
        List<String> lines = log().lines().toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
        return "\n--- last " + tail.size() + " lines of " + logFile + " ---\n" + String.join("\n", tail)
            + "\n--- end of " + name + " ---";
    }

    /** SIGTERM and wait for the exit; SIGKILL after the grace period. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!waitForExit(STOP_GRACE)) {
            process.destroyForcibly();
            if (!waitForExit(KILL_GRACE)) {
                throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL");
            }
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }

    private String log() {
        try {
            // ISO-8859-1 accepts every byte: a half-written UTF-8 character at the end cannot fail the read.
            return Files.readString(logFile, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + logFile, e);
        }
    }

    private boolean waitForExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name + " to exit", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(LOG_POLL_INTERVAL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling a child log", e);
        }
    }
}
