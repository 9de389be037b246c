package io.vrmq.client.it.support;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

/**
 * Our NameServer and one or more brokers as child JVMs on free ports, with their data and logs under one
 * directory. The NameServer and each broker can be stopped and started again on the same port and store (outage and
 * restart tests). Delay levels are short ("1s 2s 3s ...") and brokers register every 2 s, so tests wait seconds,
 * not minutes. Test thread only.
 */
public final class TestCluster implements AutoCloseable {
    /** Short delay levels: level 3 (the first retry) is 3 s. */
    public static final String DELAY_LEVELS = "1s 2s 3s 4s 5s 6s 7s 8s 9s 10s 11s 12s 13s 14s 15s 16s 17s 18s";
    private static final int REGISTER_PERIOD_MS = 2_000;
    private static final int COMMIT_LOG_FILE_BYTES = 16 * 1024 * 1024;
    private static Path namesrvJar;
    private static Path brokerJar;

    private final int namesrvPort;
    private final ServerProcess nameServer;
    private final List<Integer> brokerPorts = new ArrayList<>();
    private final List<ServerProcess> brokers = new ArrayList<>();

    private final JsonObject brokerExtra;

    private TestCluster(int namesrvPort, ServerProcess nameServer, JsonObject brokerExtra) {
        this.namesrvPort = namesrvPort;
        this.nameServer = nameServer;
        this.brokerExtra = brokerExtra;
    }

    /** A NameServer and one broker, "broker-a". */
    public static TestCluster start(Path dir) {
        return start(dir, 1);
    }

    /** A NameServer and {@code brokerCount} brokers named broker-a, broker-b, ... */
    public static TestCluster start(Path dir, int brokerCount) {
        return start(dir, brokerCount, new JsonObject(), new JsonObject());
    }

    /** Like {@link #start(Path, int)}, with further keys in the NameServer's and every broker's config. */
    public static TestCluster start(Path dir, int brokerCount, JsonObject namesrvExtra, JsonObject brokerExtra) {
        int namesrvPort = FreePorts.any();
        Path namesrvConfig = write(dir.resolve("namesrv.json"), new JsonObject()
            .put("listenPort", namesrvPort).put("bindAddress", "127.0.0.1").put("adminPort", -1)
            .put("kvConfigPath", dir.resolve("namesrv/kvConfig.json").toString()).mergeIn(namesrvExtra));
        ServerProcess nameServer = new ServerProcess("vrmq-namesrv", jar("vrmq.namesrv.jar",
            "../nameserver-verticle/target/vrmq-namesrv.jar", true), namesrvConfig, dir.resolve("namesrv.log"),
            "The Name Server boot success");
        TestCluster cluster = new TestCluster(namesrvPort, nameServer, brokerExtra.copy());
        try {
            nameServer.start();
            for (int index = 0; index < brokerCount; index++) {
                cluster.addBroker(dir, "broker-" + (char) ('a' + index));
            }
        } catch (RuntimeException | AssertionError e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public String namesrvAddr() {
        return "127.0.0.1:" + namesrvPort;
    }

    public String brokerAddr() {
        return brokerAddr(0);
    }

    public String brokerAddr(int index) {
        return "127.0.0.1:" + brokerPorts.get(index);
    }

    /** SIGTERM: the broker unregisters, persists its offsets and closes its store. */
    public void stopBroker(int index) {
        brokers.get(index).stop();
    }

    /** The same broker again: same port, same store. */
    public void startBroker(int index) {
        brokers.get(index).start();
    }

    public void stopNameServer() {
        nameServer.stop();
    }

    public void startNameServer() {
        nameServer.start();
    }

    /** UPDATE_AND_CREATE_TOPIC (17) with {@code queueNums} read and write queues, as mqadmin updateTopic sends it. */
    public Future<Void> createTopic(Vertx vertx, String topic, int queueNums) {
        return createTopic(vertx, brokerAddr(), topic, queueNums);
    }

    public Future<Void> createTopic(Vertx vertx, String brokerAddr, String topic, int queueNums) {
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        RemotingCommand request = RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC, Map.of(
            "topic", topic, "defaultTopic", "TBW102", "readQueueNums", Integer.toString(queueNums),
            "writeQueueNums", Integer.toString(queueNums), "perm", "6", "topicFilterType", "SINGLE_TAG",
            "topicSysFlag", "0", "order", "false"), null);
        return client.invoke(brokerAddr, request)
            .compose(response -> response.code() == ResponseCode.SUCCESS ? Future.<Void>succeededFuture()
                : Future.<Void>failedFuture("create topic " + topic + ": " + response.remark()))
            .eventually(client::close);
    }

    @Override
    public void close() {
        brokers.forEach(ServerProcess::stop);
        nameServer.stop();
    }

    private void addBroker(Path dir, String brokerName) {
        int port = FreePorts.forBroker();
        Path brokerDir = dir.resolve(brokerName);
        Path config = write(brokerDir.resolve("broker.json"), new JsonObject()
            .put("brokerName", brokerName).put("listenPort", port).put("bindAddress", "127.0.0.1")
            .put("namesrvAddr", namesrvAddr()).put("brokerIP1", "127.0.0.1")
            .put("storePathRootDir", brokerDir.resolve("store").toString())
            .put("mappedFileSizeCommitLog", COMMIT_LOG_FILE_BYTES).put("adminPort", -1).put("grpcListenPort", -1)
            .put("messageDelayLevel", DELAY_LEVELS).put("registerNameServerPeriod", REGISTER_PERIOD_MS)
            .mergeIn(brokerExtra));
        ServerProcess broker = new ServerProcess("vrmq-" + brokerName, jar("vrmq.broker.jar",
            "../broker-verticle/target/vrmq-broker.jar", false), config, brokerDir.resolve("broker.log"),
            "The broker[");
        brokerPorts.add(port);
        brokers.add(broker);
        broker.start();
    }

    private static Path write(Path file, JsonObject config) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, config.encodePrettily());
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }

    /** A private, complete copy of the jar: other engineers rebuild the jars while tests run. */
    private static synchronized Path jar(String property, String fallback, boolean isNameServer) {
        Path cached = isNameServer ? namesrvJar : brokerJar;
        if (cached != null) {
            return cached;
        }
        Path source = Path.of(System.getProperty(property, fallback));
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
                    throw new IllegalStateException(source + " has no manifest: rebuilt while copied?");
                }
            }
            if (isNameServer) {
                namesrvJar = copy;
            } else {
                brokerJar = copy;
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy " + source, e);
        }
    }
}
