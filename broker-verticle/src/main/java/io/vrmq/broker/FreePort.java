package io.vrmq.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/**
 * Picks a free port for listenPort 0. The broker must know its port before it binds (the store writes it into every
 * record as the store host), so "any port" is resolved up front.
 */
final class FreePort {
    private FreePort() {
    }

    static int pick() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
