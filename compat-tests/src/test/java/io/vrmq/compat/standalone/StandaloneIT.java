package io.vrmq.compat.standalone;

import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.ChildJvm;
import io.vrmq.compat.support.FreePorts;
import io.vrmq.compat.support.OfficialClients;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The standalone jar (a NameServer and a Broker in one JVM, the README's first command) serves the official
 * producer and push consumer, and stops cleanly on SIGTERM, on Java NIO (the default) and on the native epoll transport.
 */
class StandaloneIT {
    private static final String JAR_PROPERTY = "vrmq.standalone.jar";
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final int MESSAGES = 5;

    private ChildJvm standalone;
    private DefaultMQProducer producer;
    private DefaultMQPushConsumer consumer;

    @AfterEach
    void stopAll() {
        if (consumer != null) {
            consumer.shutdown();
        }
        if (producer != null) {
            producer.shutdown();
        }
        if (standalone != null) {
            standalone.close();
        }
    }

    @ParameterizedTest(name = "useEpollNativeSelector {0}")
    @ValueSource(booleans = {true, false})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void oneJvmServesTheOfficialProducerAndConsumerAndStopsOnSigterm(boolean epoll, @TempDir Path dir)
        throws Exception {
        int namesrvPort = FreePorts.any();
        int brokerPort = FreePorts.forBroker();
        String namesrvAddr = "127.0.0.1:" + namesrvPort;
        String transport = epoll ? ", \"useEpollNativeSelector\": true" : "";
        Path namesrvConf = writeNamesrvConf(dir, namesrvPort, transport);
        Path brokerConf = writeBrokerConf(dir, brokerPort, namesrvAddr, transport);
        standalone = ChildJvm.start("vrmq-standalone", dir, List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-jar",
            System.getProperty(JAR_PROPERTY), "-namesrv-conf", namesrvConf.toString(), "-broker-conf",
            brokerConf.toString()), Map.of());
        standalone.awaitLogLine(epoll ? "transport: epoll (native, useEpollNativeSelector true)"
            : "transport: NIO (useEpollNativeSelector false)", BOOT_TIMEOUT);
        standalone.awaitLogLine("The Name Server boot success", BOOT_TIMEOUT);
        standalone.awaitLogLine("boot success. serializeType=JSON and name server is " + namesrvAddr, BOOT_TIMEOUT);

        producer = OfficialClients.producer(namesrvAddr, "standalone-producer");
        for (int i = 0; i < MESSAGES; i++) {
            SendResult result = producer.send(new Message("StandaloneTopic", "TagA",
                ("standalone-" + i).getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus(), result.toString());
        }
        Set<String> received = ConcurrentHashMap.newKeySet();
        consumer = new DefaultMQPushConsumer("standalone-consumer");
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(OfficialClients.uniqueInstanceName("standalone-consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("StandaloneTopic", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(message -> received.add(new String(message.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        Await.until("all " + MESSAGES + " messages consumed", Duration.ofSeconds(60),
            () -> received.size() == MESSAGES);
        consumer.shutdown();
        consumer = null;
        producer.shutdown();
        producer = null;

        assertTrue(standalone.stop(), "the standalone JVM exits on SIGTERM\n" + standalone.describeLog());
    }

    /**
     * The README's first command with no launcher option: the launcher's parser (picocli, which a class-data archive
     * cannot hold) is not loaded, and the broker's first registration (its first buffers) does not make JFR read its
     * metadata for Netty's allocator events (benchmark/RESULTS.md, "Start after the seventh session").
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theDefaultStartLoadsNeitherTheLaunchersParserNorJfrsMetadata(@TempDir Path dir) throws Exception {
        int namesrvPort = FreePorts.any();
        int brokerPort = FreePorts.forBroker();
        String namesrvAddr = "127.0.0.1:" + namesrvPort;
        Path namesrvConf = writeNamesrvConf(dir, namesrvPort, "");
        Path brokerConf = writeBrokerConf(dir, brokerPort, namesrvAddr, "");
        Path classes = dir.resolve("classes.txt");
        standalone = ChildJvm.start("vrmq-standalone-classes", dir, List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xlog:class+load=info:file=" + classes, "-jar",
            System.getProperty(JAR_PROPERTY), "-namesrv-conf", namesrvConf.toString(), "-broker-conf",
            brokerConf.toString()), Map.of());
        standalone.awaitLogLine("boot success. serializeType=JSON and name server is " + namesrvAddr, BOOT_TIMEOUT);
        producer = OfficialClients.producer(namesrvAddr, "standalone-classes-producer");
        assertEquals(SendStatus.SEND_OK, producer.send(new Message("StandaloneClassesTopic",
            "routed".getBytes(StandardCharsets.UTF_8))).getSendStatus());
        assertTrue(standalone.stop(), "the standalone JVM exits on SIGTERM\n" + standalone.describeLog());

        String loaded = Files.readString(classes);
        assertTrue(loaded.contains(" io.vrmq.standalone.StandaloneMain "), "the class log is complete");
        assertFalse(loaded.contains(" picocli."), "the launcher's parser was loaded");
        assertFalse(loaded.contains(" jdk.jfr.internal.MetadataRepository "), "JFR read its metadata");
    }

    /** The NameServer's file: its port, no admin API, its KV config in {@code dir}, then {@code extra} keys. */
    private static Path writeNamesrvConf(Path dir, int port, String extra) throws IOException {
        return write(dir.resolve("namesrv.json"), "{\"listenPort\": " + port
            + ", \"adminPort\": -1, \"kvConfigPath\": \"" + dir.resolve("kv.json") + "\"" + extra + "}");
    }

    /** The broker's file: its port, small segments in {@code dir}, no admin API and no gRPC port, then {@code extra}. */
    private static Path writeBrokerConf(Path dir, int port, String namesrvAddr, String extra) throws IOException {
        return write(dir.resolve("broker.json"), "{\"listenPort\": " + port
            + ", \"namesrvAddr\": \"" + namesrvAddr + "\", \"brokerIP1\": \"127.0.0.1\", \"storePathRootDir\": \""
            + dir.resolve("store") + "\", \"mappedFileSizeCommitLog\": 16777216, \"adminPort\": -1, \"grpcListenPort\": -1"
            + extra + "}");
    }

    private static Path write(Path file, String json) throws IOException {
        return Files.writeString(file, json, StandardCharsets.UTF_8);
    }
}
