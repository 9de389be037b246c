package io.vrmq.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Finds TCP ports that are free at the moment of asking, for the servers the tests start as child JVMs.
 *
 * <p>A port is free when a wildcard bind succeeds: our servers and Apache's bind either the wildcard or loopback, so
 * a free wildcard port is free for both. Another process may take the port between this check and the child's own
 * bind; the child then fails to start and says so in its log, which the launcher puts in the error. Thread-safe.
 */
public final class FreePorts {

    /** How many candidates to try for a broker's port triple before giving up. */
    private static final int BROKER_PORT_ATTEMPTS = 50;
    /** The Apache broker also listens on listenPort - 2 (its "fast"/VIP channel) and listenPort + 1 (HA). */
    private static final int BROKER_FAST_PORT_OFFSET = -2;
    private static final int BROKER_HA_PORT_OFFSET = 1;

    private FreePorts() {
    }

    /** A port the kernel just handed out as free. */
    public static int any() {
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
