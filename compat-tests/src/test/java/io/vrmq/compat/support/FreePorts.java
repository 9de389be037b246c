package io.vrmq.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds TCP ports that are free at the moment of asking, for the servers the tests start as child JVMs.
 *
 * <p>A port is free when a wildcard bind succeeds: our servers and Apache's bind either the wildcard or loopback, so
 * a free wildcard port is free for both. Another process may take the port between this check and the child's own
 * bind; the child then fails to start and says so in its log, which the launcher puts in the error. To make that
 * rare, ports come from below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}, 32768-60999 by
 * default): a port handed out by a bind to port 0 lies in that range, where any process's outgoing connection may
 * take it as its local port before the child binds (a Raft peer of ControllerFailoverIT failed so on 2026-12-03);
 * below it only an explicit bind takes a port. A port is handed out once per JVM. Thread-safe.
 */
public final class FreePorts {

    /** How many candidates to try for a broker's port triple before giving up. */
    private static final int BROKER_PORT_ATTEMPTS = 50;
    /** The Apache broker also listens on listenPort - 2 (its "fast"/VIP channel) and listenPort + 1 (HA). */
    private static final int BROKER_FAST_PORT_OFFSET = -2;
    private static final int BROKER_HA_PORT_OFFSET = 1;
    /** Ports are drawn from [LOWEST_PORT, the ephemeral range's start - 2). */
    private static final int LOWEST_PORT = 10_000;
    private static final int DRAW_ATTEMPTS = 200;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** A port free now, below the ephemeral range when it can find one, not handed out before by this JVM. */
    public static int any() {
        int end = ephemeralStart() - 2;   // room for a broker's listenPort + 1
        for (int attempt = 0; end > LOWEST_PORT && attempt < DRAW_ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, end);
            if (!HANDED_OUT.contains(port) && isFree(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        return kernelPick();
    }

    private static int kernelPick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** A listenPort for an Apache broker such that its fast port (p - 2) and HA port (p + 1) are free as well. */
    public static int forBroker() {
        for (int attempt = 0; attempt < BROKER_PORT_ATTEMPTS; attempt++) {
            int listenPort = any();
            if (listenPort + BROKER_FAST_PORT_OFFSET > 1024
                && isFree(listenPort + BROKER_FAST_PORT_OFFSET)
                && isFree(listenPort + BROKER_HA_PORT_OFFSET)) {
                return listenPort;
            }
        }
        throw new IllegalStateException("no free broker port triple in " + BROKER_PORT_ATTEMPTS + " attempts");
    }

    private static int ephemeralStart() {
        try {
            String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_START;   // not Linux, or no /proc
        }
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
}
