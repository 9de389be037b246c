package io.vrmq.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Java process the tests started: a NameServer or broker under test, with stdout and stderr captured in one log
 * file next to its data.
 *
 * <p>Waits are bounded and fail with the tail of the log in the message, so a child that did not start says why.
 * {@link #stop()} sends SIGTERM (the way an operator stops a server, so shutdown hooks run) and escalates to SIGKILL
 * after a grace period. Owned by one test class through {@link CompatResources}; called from the test thread only.
 */
public final class ChildJvm implements AutoCloseable {

    /** How long a SIGTERM'd child may take to run its shutdown hooks; the Apache broker needs about 8 s. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);
    private static final Duration KILL_GRACE = Duration.ofSeconds(10);
    private static final Duration SIGNAL_COMMAND_TIMEOUT = Duration.ofSeconds(5);
    private static final long LOG_POLL_INTERVAL_MS = 50;
    private static final int LOG_TAIL_LINES = 80;
    /** Log lines that took longer than this after the launch are reported, to show what child starts cost. */
    private static final long REPORTED_WAIT_MS = 1_000;

    private final String name;
    private final Process process;
    private final Path logFile;
    /** Bytes the log already had when this process started: a restart appends to the same file. */
    private final long logStartBytes;
    private final long launchedNanos = System.nanoTime();

    private ChildJvm(String name, Process process, Path logFile, long logStartBytes) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.logStartBytes = logStartBytes;
    }

    /**
     * Starts {@code java <javaArguments>} in {@code workDir}, output to {@code workDir/<name>.log}.
     *
     * @param environment variables added to this JVM's environment for the child
     */
    public static ChildJvm start(String name, Path workDir, List<String> javaArguments,
                                 Map<String, String> environment) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaArguments);
        Path logFile = workDir.resolve(name + ".log");
        try {
            Files.createDirectories(workDir);
            ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(environment);
            long logStartBytes = Files.exists(logFile) ? Files.size(logFile) : 0;
            return new ChildJvm(name, builder.start(), logFile, logStartBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + command, e);
        }
    }

    /**
     * Waits until a line containing {@code fragment} appears in what this process logged (not an earlier process on
     * the same log file); fails early if the child exits.
     */
    public void awaitLogLine(String fragment, Duration timeout) {
        awaitLogLine(fragment, timeout, LOG_POLL_INTERVAL_MS);
    }

    /** Like {@link #awaitLogLine(String, Duration)}, polling every {@code pollIntervalMs}. */
    public void awaitLogLine(String fragment, Duration timeout, long pollIntervalMs) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        while (!logSinceStart().contains(fragment)) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before logging '"
                    + fragment + "'" + describeLog());
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new AssertionError(name + " did not log '" + fragment + "' within " + timeout + describeLog());
            }
            pause(pollIntervalMs);
        }
        long sinceLaunchMs = (System.nanoTime() - launchedNanos) / 1_000_000;
        if (sinceLaunchMs > REPORTED_WAIT_MS) {
            System.out.println(name + " logged '" + fragment + "' " + sinceLaunchMs + " ms after its launch");
        }
    }

    /**
     * SIGTERM, then wait for the exit; SIGKILL if the shutdown hooks take longer than the grace period.
     *
     * @return whether the child exited on the SIGTERM (or had already exited), false if it had to be killed
     */
    public boolean stop() {
        if (!process.isAlive()) {
            return true;
        }
        resume();    // a SIGSTOPped child would never act on the SIGTERM
        process.destroy();
        if (waitForExit(STOP_GRACE)) {
            return true;
        }
        kill();
        return false;
    }

    /** SIGTERM without waiting: the shutdown hooks run while the test watches; {@link #stop()} waits later. */
    public void terminate() {
        process.destroy();
    }

    /** SIGKILL: the child gets no chance to unregister or close its connections cleanly. */
    public void kill() {
        process.destroyForcibly();
        if (!waitForExit(KILL_GRACE)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for " + KILL_GRACE);
        }
    }

    /** SIGSTOP: the child keeps its sockets open but sends nothing more, like a hung process. */
    public void suspend() {
        signal("-STOP");
    }

    /** SIGCONT after {@link #suspend()}; harmless on a running child, and on one that exits meanwhile. */
    public void resume() {
        if (process.isAlive()) {
            try {
                signal("-CONT");
            } catch (IllegalStateException e) {
                if (process.isAlive()) {
                    throw e;
                }
            }
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code timeout} for the process to exit; whether it did. */
    public boolean awaitExit(Duration timeout) {
        return waitForExit(timeout);
    }

    /** The exit code (143 = SIGTERM before the JVM handled it, 137 = SIGKILL); the process must have exited. */
    public int exitCode() {
        return process.exitValue();
    }

    /** Everything this process wrote to the log (stdout and stderr), not what earlier ones on the same file did. */
    public String logSinceStart() {
        String all = log();
        return all.length() <= logStartBytes ? "" : all.substring((int) logStartBytes);
    }

    public String name() {
        return name;
    }

    /** The last lines of the log, under a heading naming the child, for assertion messages. */
    public String describeLog() {
        List<String> lines = log().lines().toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
        return "\n--- last " + tail.size() + " lines of " + logFile + " ---\n" + String.join("\n", tail)
            + "\n--- end of " + name + " ---";
    }

    @Override
    public void close() {
        stop();
    }

    private String log() {
        try {
            // ISO-8859-1 never rejects a byte, so a half-written UTF-8 character at the end cannot fail the read.
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

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(SIGNAL_COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run kill " + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + name, e);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling a child log", e);
        }
    }
}
