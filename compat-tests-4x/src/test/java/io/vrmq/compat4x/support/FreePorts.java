package io.vrmq.compat4x.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * TCP ports free at the moment of asking (a wildcard bind succeeds), for the servers started as child JVMs. Another
 * process may take a port before the child binds it; the child then fails to start and its log tail says so.
 * Stateless; any thread.
 */
public final class FreePorts {

    /** Our broker also listens on listenPort - 2, the "fast" (VIP) channel the 4.x client sends through. */
    public static final int FAST_CHANNEL_OFFSET = -2;
    /** ... and on listenPort + 1 for replication (haListenPort's default), even without a slave. */
    public static final int HA_OFFSET = 1;
    private static final int BROKER_PORT_ATTEMPTS = 50;
    private static final int LOWEST_USER_PORT = 1024;
    private static final int MAX_PORT = 65_535;

    private FreePorts() {
    }

    public static int any() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /** A broker listenPort whose fast channel port (listenPort - 2) and HA port (listenPort + 1) are free too. */
    public static int forBroker() {
        for (int attempt = 0; attempt < BROKER_PORT_ATTEMPTS; attempt++) {
            int listenPort = any();
            int fastPort = listenPort + FAST_CHANNEL_OFFSET;
            int haPort = listenPort + HA_OFFSET;
            if (fastPort > LOWEST_USER_PORT && haPort <= MAX_PORT && isFree(fastPort) && isFree(haPort)) {
                return listenPort;
            }
        }
        throw new IllegalStateException("no free broker ports (listen, fast, HA) in " + BROKER_PORT_ATTEMPTS
            + " attempts");
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
