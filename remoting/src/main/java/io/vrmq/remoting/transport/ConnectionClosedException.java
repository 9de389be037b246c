package io.vrmq.remoting.transport;

/** The connection closed before the response to a request arrived. */
public final class ConnectionClosedException extends RuntimeException {
    public ConnectionClosedException(String message) {
        super(message);
    }
}
