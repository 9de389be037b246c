package io.vrmq.remoting.transport;

/**
 * What the transport reports for metrics. Implementations must be cheap and thread-safe: they are called on
 * event loops for every request.
 */
public interface RemotingObserver {
    RemotingObserver NONE = new RemotingObserver() {
    };

    /** A request was answered (or, for oneway, processed) with {@code responseCode} after {@code nanos}. */
    default void requestHandled(int requestCode, int responseCode, long nanos) {
    }

    /** A frame could not be trusted and its connection was closed. */
    default void frameRejected(String reason) {
    }

    default void connectionOpened() {
    }

    default void connectionClosed() {
    }
}
