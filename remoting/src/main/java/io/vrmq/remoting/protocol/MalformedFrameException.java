package io.vrmq.remoting.protocol;

/** A frame that cannot be trusted: its connection is closed, no reply is sent. */
public final class MalformedFrameException extends RuntimeException {
    public MalformedFrameException(String message) {
        super(message);
    }

    public MalformedFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
