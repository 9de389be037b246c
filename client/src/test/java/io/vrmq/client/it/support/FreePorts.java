package io.vrmq.client.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** TCP ports free at the moment of asking, for the servers started as child JVMs. Thread-safe. */
public final class FreePorts {
    private static final int BROKER_PORT_ATTEMPTS = 50;
    /** Our broker also listens on listenPort - 2 (the fast channel) and listenPort + 1 (HA, even without a slave). */
    private static final int FAST_CHANNEL_OFFSET = -2;
    private static final int HA_OFFSET = 1;
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

    /** A broker listenPort whose fast channel and HA ports are free as well. */
    public static int forBroker() {
        for (int attempt = 0; attempt < BROKER_PORT_ATTEMPTS; attempt++) {
            int port = any();
            if (port + FAST_CHANNEL_OFFSET > 1024 && port + HA_OFFSET <= MAX_PORT && isFree(port + FAST_CHANNEL_OFFSET)
                    && isFree(port + HA_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("no free broker port pair in " + BROKER_PORT_ATTEMPTS + " attempts");
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
