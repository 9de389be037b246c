package io.vrmq.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A real Apache RocketMQ 5.5.0 broker ({@code BrokerStartup}) started as a child JVM from the test classpath: a
 * master (brokerId 0) on free loopback ports with its store in the test's temp dir, registering with the given
 * NameServers. It serves plain connections only ({@code tls.server.mode=disabled}, see {@link ApacheJvm}): no test
 * reaches an Apache broker over TLS, and the self-signed certificate would cost seconds of every start. Test thread
 * only.
 */
public final class ApacheBroker implements AutoCloseable {

    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(90);
    /** Logged by the broker once a NameServer accepted its REGISTER_BROKER. */
    private static final String REGISTERED_LINE = "Registering current broker to name server completed. TargetHost=";
    /** The broker clamps its registration period to [10 s, 60 s]; 30 s is RocketMQ's default. */
    private static final long REGISTER_NAME_SERVER_PERIOD_MS = 30_000;

    private final String clusterName;
    private final String brokerName;
    private final int listenPort;
    private final ChildJvm process;

    private ApacheBroker(String clusterName, String brokerName, int listenPort, ChildJvm process) {
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.listenPort = listenPort;
        this.process = process;
    }

    /**
     * Starts the broker and waits until it has registered with every NameServer. The 5.5.0 broker prints its boot
     * line before registering and sends its first full REGISTER_BROKER from the periodic task, 10 s after start.
     *
     * @param nameServers the NameServers it registers with, joined with ';' into namesrvAddr
     */
    public static ApacheBroker start(Path dir, String clusterName, String brokerName,
                                     List<RunningNameServer> nameServers) {
        return start(dir, clusterName, brokerName, nameServers, Map.of());
    }

    /**
     * Like {@link #start(Path, String, String, List)}, with further broker.conf properties written after the defaults
     * and replacing any of them they name: a slave role ({@code brokerRole=SLAVE}, {@code brokerId=1},
     * {@code haMasterAddress}), another segment size. A slave registers too, so the same waits apply.
     */
    public static ApacheBroker start(Path dir, String clusterName, String brokerName,
                                     List<RunningNameServer> nameServers, Map<String, String> extraProperties) {
        int listenPort = FreePorts.forBroker();
        Path store = dir.resolve("store");
        String namesrvAddr = String.join(";", nameServers.stream().map(RunningNameServer::address).toList());
        Path config = write(dir.resolve("broker.conf"), String.join("\n",
            "brokerClusterName=" + clusterName,
            "brokerName=" + brokerName,
            "brokerId=0",
            "brokerIP1=127.0.0.1",
            "listenPort=" + listenPort,
            "namesrvAddr=" + namesrvAddr,
            "registerNameServerPeriod=" + REGISTER_NAME_SERVER_PERIOD_MS,
            "autoCreateTopicEnable=true",
            "storePathRootDir=" + store,
            "storePathCommitLog=" + store.resolve("commitlog"),
            "storePathConsumeQueue=" + store.resolve("consumequeue"),
            "storePathIndex=" + store.resolve("index"),
            "storeCheckpoint=" + store.resolve("checkpoint"),
            "abortFile=" + store.resolve("abort"),
            // Small files: each is mapped (and pre-touched) whole, and the defaults are 1 GiB and 6 MB.
            "mappedFileSizeCommitLog=16777216",
            "mappedFileSizeConsumeQueue=60000",
            "maxIndexNum=20000",
            "maxHashSlotNum=5000",
            // The timer wheel maps ~40 MB more at start and none of these tests sends timed messages.
            "timerWheelEnable=false",
            // java.util.Properties keeps the last value of a repeated key, so these replace the defaults above.
            extraProperties.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining("\n")),
            ""));
        ChildJvm process = ChildJvm.start("apache-broker-" + brokerName, dir,
            ApacheJvm.arguments(dir, ApacheJvm.TLS_DISABLED, "org.apache.rocketmq.broker.BrokerStartup", "-c",
                config.toString()), Map.of());
        try {
            process.awaitLogLine("The broker[" + brokerName, BOOT_TIMEOUT);
            for (RunningNameServer nameServer : nameServers) {
                process.awaitLogLine(REGISTERED_LINE + nameServer.address(), BOOT_TIMEOUT);
            }
        } catch (AssertionError e) {
            process.stop();
            throw e;
        }
        return new ApacheBroker(clusterName, brokerName, listenPort, process);
    }

    /** "127.0.0.1:port", the address it registers (brokerIP1) and clients send to. */
    public String address() {
        return "127.0.0.1:" + listenPort;
    }

    /**
     * "127.0.0.1:(listenPort + 1)": where it accepts slaves, as BrokerStartup derives haListenPort when the config
     * leaves it at 0 (the address it registers uses brokerIP2, which a test sets to 127.0.0.1 when it matters).
     */
    public String haAddress() {
        return "127.0.0.1:" + (listenPort + 1);
    }

    public String clusterName() {
        return clusterName;
    }

    public String brokerName() {
        return brokerName;
    }

    public ChildJvm process() {
        return process;
    }

    /**
     * SIGKILL: cleanup only, the 5.5.0 broker takes ~8 s to shut down cleanly and nothing of it is kept. A test that
     * needs the clean shutdown calls {@code process().stop()} or {@code process().terminate()} itself.
     */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.kill();
        }
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
