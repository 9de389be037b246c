package io.vrmq.compat.controller.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.vrmq.compat.support.Await;
import io.vrmq.compat.support.FreePorts;
import org.apache.rocketmq.common.ControllerConfig;
import org.apache.rocketmq.controller.ControllerManager;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;

/**
 * Apache RocketMQ 5.5.0's own controller (DLedger type) running in this test JVM, one {@link ControllerManager} per
 * node on free loopback ports (CONTROLLER.md §7): the reference our brokers must work under. In-process rather than a
 * child JVM because its ControllerStartup calls System.exit and the classpath is already here. Test thread only.
 */
public final class ApacheControllers implements AutoCloseable {
    private static final String GROUP = "vrmq-compat-apache-controller";
    /** DLedger entry files are sparse mmaps; 16 MiB instead of 1 GiB keeps temp dirs small. */
    private static final int MAPPED_FILE_BYTES = 16 * 1024 * 1024;
    private static final long SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS = 2_000;
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(30);

    private final List<ControllerManager> nodes;
    private final List<String> addresses;

    private ApacheControllers(List<ControllerManager> nodes, List<String> addresses) {
        this.nodes = nodes;
        this.addresses = addresses;
    }

    /** Starts {@code nodeCount} nodes of one group and waits until one leads. */
    public static ApacheControllers start(Path dir, int nodeCount) {
        List<Integer> ports = IntStream.range(0, nodeCount).mapToObj(i -> FreePorts.any()).toList();
        String peers = IntStream.range(0, nodeCount).mapToObj(i -> "n" + i + "-127.0.0.1:" + ports.get(i))
            .collect(Collectors.joining(";"));
        List<ControllerManager> nodes = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            nodes.add(startNode(dir.resolve("n" + i), peers, "n" + i, ports.get(i)));
        }
        ApacheControllers controllers = new ApacheControllers(nodes,
            ports.stream().map(port -> "127.0.0.1:" + port).toList());
        Await.until("an Apache controller leader", LEADER_TIMEOUT, () -> controllers.leaderIndex().isPresent());
        return controllers;
    }

    private static ControllerManager startNode(Path dir, String peers, String selfId, int port) {
        ControllerConfig config = new ControllerConfig();
        config.setRocketmqHome(dir.toString());
        config.setControllerDLegerGroup(GROUP);
        config.setControllerDLegerPeers(peers);
        config.setControllerDLegerSelfId(selfId);
        config.setControllerStorePath(dir.resolve("store").toString());
        config.setConfigStorePath(dir.resolve("controller.properties").toString());
        config.setMappedFileSize(MAPPED_FILE_BYTES);
        config.setScanNotActiveBrokerInterval(SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS);
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(port);
        server.setBindAddress("127.0.0.1");
        ControllerManager node = new ControllerManager(config, server, new NettyClientConfig());
        if (!node.initialize()) {
            throw new IllegalStateException("Apache controller " + selfId + " did not initialize");
        }
        node.start();
        return node;
    }

    /** "127.0.0.1:p0;127.0.0.1:p1;...", the brokers' controllerAddr. */
    public String controllerAddr() {
        return String.join(";", addresses);
    }

    public List<String> addresses() {
        return addresses;
    }

    /** The address of the node that leads now, if any. */
    public Optional<String> leaderAddress() {
        return leaderIndex().map(addresses::get);
    }

    /** Shuts the leading node down (its store stays); returns its address. */
    public String stopLeader() {
        int leader = leaderIndex().orElseThrow(() -> new IllegalStateException("no leader to stop"));
        nodes.get(leader).shutdown();
        nodes.set(leader, null);
        return addresses.get(leader);
    }

    @Override
    public void close() {
        for (ControllerManager node : nodes) {
            if (node != null) {
                node.shutdown();
            }
        }
    }

    private Optional<Integer> leaderIndex() {
        for (int i = 0; i < nodes.size(); i++) {
            ControllerManager node = nodes.get(i);
            if (node != null && node.getController().isLeaderState()) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }
}
