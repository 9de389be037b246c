package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;
import io.vrmq.loadcommon.LatencyHistogram;
import io.vrmq.loadcommon.ProcessStats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@link MessageLoadBench} send run (no consumer) split over {@code --client-jvms} JVMs, for the scale table's
 * 1,000 producer connections: one JVM holding a thousand official client instances (about ten threads each) on a
 * 2-core machine spends its time in safepoints and its route look-ups time out, so each part JVM holds a share of
 * the producers (and of the count, warm-up and async window) with a small heap. Each part starts its producers,
 * warms up and prints {@code READY}; once all are ready this process reads the broker's CPU time and tells every
 * part to go (a line on its stdin), so the measured sends run together. Each part prints a {@code PART} line (its
 * send phase's wall-clock start and end and its SEND_OK latency histogram) and its own RESULT; the merged RESULT
 * printed here has the same fields as MessageLoadBench's: throughput is every part's SEND_OK over the time from the
 * first part's start to the last one's end, the percentiles are those of the merged histograms (all samples
 * together), the broker's CPU is read from the go to the last part's end. The parts' output is shown prefixed with
 * {@code [jvm N]}. Stopping this process (TERM) stops the parts.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.SplitMessageLoad --client-jvms 4 --client-heap 256m
 *     --client-jvm-opts "-Xss256k" MessageLoadBench options...</pre>
 */
public final class SplitMessageLoad {

    static final String READY = "READY";
    private static final String PART = "PART ";
    private static final String RESULT = "RESULT ";
    private static final String USAGE = "usage: SplitMessageLoad --client-jvms N [--client-heap 256m]"
        + " [--client-jvm-opts \"...\"] [--ready-timeout-seconds 600] MessageLoadBench options (no --consume)";
    private static final List<String> OWN_OPTIONS = List.of("client-jvms", "client-heap", "client-jvm-opts",
        "ready-timeout-seconds");
    /** After the go: the parts' sends are bounded by --max-send-seconds; then their shutdown (ProducerPool). */
    private static final long SHUTDOWN_WAIT_SECONDS = 60;

    private SplitMessageLoad() {
    }

    public static void main(String[] args) throws Exception {
        int status = 1;
        try {
            status = run(args);
        } catch (Exception | StackOverflowError failure) {
            // said here: System.exit below would end the JVM before an uncaught exception is printed
            System.out.println("FAILED split: " + failure);
            failure.printStackTrace(System.out);
        } finally {
            System.exit(status);
        }
    }

    private static int run(String[] args) throws Exception {
        Map<String, String> own = CommandLine.parse(args, USAGE);
        own.keySet().retainAll(OWN_OPTIONS);
        List<String> passed = withoutOwnOptions(args);
        MessageLoadOptions total = MessageLoadOptions.parse(passed.toArray(String[]::new));
        int jvms = Integer.parseInt(own.getOrDefault("client-jvms", "2"));
        CommandLine.require(jvms >= 1 && jvms <= total.producers(), "--client-jvms must be 1..--producers", USAGE);
        CommandLine.require(!total.consumes() && total.idleSeconds() == 0 && total.rate() == 0 && !total.awaitGo(),
            "a split run sends only: no --consume, --idle-seconds, --rate or --await-go", USAGE);
        long readyTimeoutSeconds = Long.parseLong(own.getOrDefault("ready-timeout-seconds", "600"));
        List<Part> parts = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> parts.forEach(part -> part.process.destroyForcibly())));
        CountDownLatch ready = new CountDownLatch(jvms);
        CountDownLatch sent = new CountDownLatch(jvms);
        for (int i = 0; i < jvms; i++) {
            List<String> command = partCommand(own, passed, total, jvms, i);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            Part part = new Part(i, process, ready, sent);
            parts.add(part);
            part.startReading();
        }
        System.out.println("split: " + total.producers() + " producers over " + jvms + " client JVMs");
        if (!awaitAll(ready, parts, readyTimeoutSeconds)) {
            System.out.println("FAILED split: not every client JVM got ready (see its lines above)");
            return 1;
        }
        String broker = total.watchPid() > 0 ? Long.toString(total.watchPid()) : null;
        long brokerCpuStart = broker == null ? -1 : ProcessStats.cpuMillis(broker);
        for (Part part : parts) {
            part.go();
        }
        boolean allSent = awaitAll(sent, parts, total.maxSendSeconds() + SHUTDOWN_WAIT_SECONDS);
        long brokerCpuEnd = broker == null ? -1 : ProcessStats.cpuMillis(broker);
        long brokerPeakRss = broker == null ? -1 : ProcessStats.statusKib(broker, "VmHWM");
        long brokerRssAnon = broker == null ? -1 : ProcessStats.statusKib(broker, "RssAnon");
        for (Part part : parts) {
            if (!part.process.waitFor(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS)) {
                System.out.println("split: jvm " + part.index + " still running; stopping it");
                part.process.destroyForcibly();
            }
            part.reader.join(TimeUnit.SECONDS.toMillis(5));
        }
        if (!allSent || parts.stream().anyMatch(part -> part.result == null || part.partLine == null)) {
            System.out.println("FAILED split: a client JVM ended without its PART and RESULT lines");
            return 1;
        }
        MessageLoadResult merged = merge(total, parts, broker == null ? -1 : brokerCpuEnd - brokerCpuStart,
            brokerPeakRss, brokerRssAnon);
        System.out.println(RESULT + merged.toJson());
        return 0;
    }

    /** The PART line's JSON: the wall-clock bounds of one part's send phase and its latencies. */
    static String partJson(long startEpochMillis, long endEpochMillis, String latenciesSparse) {
        return String.format(Locale.ROOT, "{\"startEpochMillis\":%d,\"endEpochMillis\":%d,\"latencies\":\"%s\"}",
            startEpochMillis, endEpochMillis, latenciesSparse);
    }

    private static MessageLoadResult merge(MessageLoadOptions total, List<Part> parts, long brokerCpuSend,
                                           long brokerPeakRss, long brokerRssAnon) {
        LatencyHistogram latencies = new LatencyHistogram();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long attempted = 0;
        long ok = 0;
        long notOk = 0;
        long errors = 0;
        long clientCpu = 0;
        String firstError = null;
        for (Part part : parts) {
            start = Math.min(start, number(part.partLine, "startEpochMillis"));
            end = Math.max(end, number(part.partLine, "endEpochMillis"));
            latencies.addSparse(text(part.partLine, "latencies"));
            attempted += number(part.result, "attempted");
            ok += number(part.result, "sent");
            notOk += number(part.result, "sendNotOk");
            errors += number(part.result, "sendErrors");
            clientCpu += number(part.result, "clientCpuMillis");
            firstError = firstError != null ? firstError : text(part.result, "firstError");
            System.out.printf("split: jvm %d sent %d, p99 %d µs%n", part.index, number(part.result, "sent"),
                number(part.result, "sendP99Micros"));
        }
        SendLoad.Summary send = new SendLoad.Summary(attempted, ok, notOk, errors,
            TimeUnit.MILLISECONDS.toNanos(end - start), latencies.percentileMicros(0.50, ok),
            latencies.percentileMicros(0.99, ok), latencies.percentileMicros(0.999, ok), firstError);
        return new MessageLoadResult(total, send, -1, -1, -1, -1, -1, -1, -1, -1, -1, brokerCpuSend, -1, -1, -1,
            brokerPeakRss, brokerRssAnon, clientCpu,
            new ScaleFigures(total.producers(), total.topicCount(), -1, BrokerIdle.NONE));
    }

    /** Part {@code index}'s java command: its share of producers, count, warm-up and window. */
    private static List<String> partCommand(Map<String, String> own, List<String> passed, MessageLoadOptions total,
                                            int jvms, int index) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + own.getOrDefault("client-heap", "256m")));
        String jvmOpts = own.getOrDefault("client-jvm-opts", "").trim();
        if (!jvmOpts.isEmpty()) {
            command.addAll(Arrays.asList(jvmOpts.split("\\s+")));
        }
        command.add("-Duser.home=" + System.getProperty("user.home"));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MessageLoadBench.class.getName()));
        int producers = share(total.producers(), jvms, index);
        List<String> replaced = List.of("producers", "count", "warmup-count", "window", "label", "await-go");
        for (int i = 0; i < passed.size(); i += 2) {
            if (!replaced.contains(passed.get(i).substring(2))) {
                command.addAll(passed.subList(i, i + 2));
            }
        }
        command.addAll(List.of("--producers", Integer.toString(producers),
            "--count", Integer.toString(share(total.count(), jvms, index)),
            "--warmup-count", Integer.toString(total.warmupCount() == 0 ? 0
                : Math.max(producers, share(total.warmupCount(), jvms, index))),
            "--window", Integer.toString(Math.max(1, share(total.window(), jvms, index))),
            "--label", total.label() + " jvm " + index, "--await-go", "true"));
        return command;
    }

    /** Part {@code index}'s share of {@code amount} over {@code parts} (the first ones take the remainder). */
    static int share(int amount, int parts, int index) {
        return amount / parts + (index < amount % parts ? 1 : 0);
    }

    private static List<String> withoutOwnOptions(String[] args) {
        List<String> passed = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!OWN_OPTIONS.contains(args[i].substring(2))) {
                passed.addAll(List.of(args[i], args[i + 1]));
            }
        }
        return passed;
    }

    /** Waits for the latch; false when it timed out or a part ended first without counting it down. */
    private static boolean awaitAll(CountDownLatch latch, List<Part> parts, long timeoutSeconds)
        throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!latch.await(200, TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() > deadline || parts.stream().anyMatch(Part::endedEarly)) {
                return false;
            }
        }
        return true;
    }

    private static long number(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\":(-?[0-9]+)").matcher(json);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return Long.parseLong(matcher.group(1));
    }

    /**
     * A string member (null for JSON null), escapes left as they are. Possessive: a histogram is thousands of
     * characters, and a backtracking alternation would recurse once per character (a StackOverflowError at -Xss256k).
     */
    private static String text(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\":(null|\"((?:[^\"\\\\]++|\\\\.)*+)\")").matcher(json);
        return matcher.find() ? matcher.group(2) : null;
    }

    /** One part JVM: its output forwarded line by line, its READY, PART and RESULT noted. */
    private static final class Part {
        private final int index;
        private final Process process;
        private final CountDownLatch ready;
        private final CountDownLatch sent;
        private final Thread reader;
        private volatile boolean readySeen;
        private volatile String partLine;
        private volatile String result;

        Part(int index, Process process, CountDownLatch ready, CountDownLatch sent) {
            this.index = index;
            this.process = process;
            this.ready = ready;
            this.sent = sent;
            this.reader = new Thread(this::forward, "split-jvm-" + index);
            this.reader.setDaemon(true);
        }

        void startReading() {
            reader.start();
        }

        void go() throws IOException {
            OutputStream stdin = process.getOutputStream();
            stdin.write("go\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }

        /** Ended before its RESULT (or, before the go, before its READY). */
        boolean endedEarly() {
            return !process.isAlive() && (result == null || !readySeen);
        }

        private void forward() {
            try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith(PART)) {
                        partLine = line.substring(PART.length());
                        System.out.println("[jvm " + index + "] PART (" + partLine.length() + " chars)");
                        continue;
                    }
                    System.out.println("[jvm " + index + "] " + line);
                    if (line.equals(READY)) {
                        readySeen = true;
                        ready.countDown();
                    } else if (line.startsWith(RESULT)) {
                        result = line.substring(RESULT.length());
                        sent.countDown();
                    }
                }
            } catch (IOException e) {
                System.out.println("[jvm " + index + "] output lost: " + e);
            }
        }
    }
}
