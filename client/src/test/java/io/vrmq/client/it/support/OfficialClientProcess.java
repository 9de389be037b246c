package io.vrmq.client.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official 5.5.0 client in its own JVM: {@code OfficialClient.java} (a test resource) run with the source
 * launcher on the compat-tests test classpath, which holds rocketmq-client and its Netty 4.1. That classpath comes from
 * the file named by the {@code vrmq.official.classpath} property, written by
 * {@code mvn -q -pl compat-tests dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=<file>}.
 * Blocking: call from a worker thread ({@code vertx.executeBlocking}).
 */
public final class OfficialClientProcess {
    public static final String CLASSPATH_PROPERTY = "vrmq.official.classpath";
    private static final long TIMEOUT_MS = 90_000;

    private OfficialClientProcess() {
    }

    /** The classpath file, or null when it was not generated (the interop tests are then skipped). */
    public static Path classpathFile() {
        String file = System.getProperty(CLASSPATH_PROPERTY);
        return file == null || !Files.isRegularFile(Path.of(file)) ? null : Path.of(file);
    }

    /** Runs {@code OfficialClient <mode> <arguments>} to its end; returns its stdout lines, fails on a non-zero exit. */
    public static List<String> run(Path logFile, String mode, String... arguments) {
        try {
            Path source = Path.of(OfficialClientProcess.class.getResource("/interop/OfficialClient.java").toURI());
            Path logback = source.resolveSibling("rmq-logback.xml");
            List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Drmq.logback.configurationFile=" + logback,
                // rebalance every second, not every 20 s: the retry topic's queue is assigned soon after it exists
                "-Drocketmq.client.rebalance.waitInterval=1000",
                "-cp", Files.readString(classpathFile()).trim(), source.toString(), mode));
            command.addAll(List.of(arguments));
            Process process = new ProcessBuilder(command).redirectError(logFile.toFile()).start();
            List<String> lines = new ArrayList<>();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.add(line);
                }
            }
            if (!process.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("official client " + mode + " did not exit; output " + lines);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("official client " + mode + " exited with " + process.exitValue()
                    + "; output " + lines + "; log " + logFile + ":\n" + tail(logFile));
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("could not run the official client", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("OfficialClient.java is not a file resource", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the official client ran", e);
        }
    }

    /** The tab-separated fields of every line starting with {@code kind}. */
    public static List<String[]> fields(List<String> lines, String kind) {
        return lines.stream().filter(line -> line.startsWith(kind + "\t")).map(line -> line.split("\t", -1)).toList();
    }

    private static String tail(Path logFile) throws IOException {
        List<String> lines = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
