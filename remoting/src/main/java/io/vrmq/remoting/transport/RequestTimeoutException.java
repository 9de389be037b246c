package io.vrmq.remoting.transport;

/** No response arrived within the request's timeout. */
public final class RequestTimeoutException extends RuntimeException {
    public RequestTimeoutException(String message) {
        super(message);
    }
}
