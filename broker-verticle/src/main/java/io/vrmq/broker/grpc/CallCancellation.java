package io.vrmq.broker.grpc;

import io.vertx.grpc.server.GrpcServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the client gave up on a call (RST_STREAM: the SDKs cancel every call that misses its deadline, 3 s for a
 * send, and retry it), so its answer is dropped instead of written: Vert.x refuses writes to a reset stream with an
 * IllegalStateException, which would surface as an unhandled error per late call. A connection that closed under the
 * call fails the write the same way, and is treated the same. One per call; only the call's event loop uses it.
 */
final class CallCancellation {
    private static final Logger log = LoggerFactory.getLogger(CallCancellation.class);

    private boolean isCancelled;

    private CallCancellation() {
    }

    /** Starts watching {@code request}'s stream for a reset; call before anything else reads the request. */
    static CallCancellation watch(GrpcServerRequest<?, ?> request) {
        CallCancellation cancellation = new CallCancellation();
        request.errorHandler(error -> cancellation.isCancelled = true);
        return cancellation;
    }

    boolean isCancelled() {
        return isCancelled;
    }

    /**
     * Runs {@code answer} (the writes of the reply) unless the call is cancelled; true when it was written. A write
     * refused because the stream failed in between also counts as cancelled.
     */
    boolean answer(Runnable answer) {
        if (isCancelled) {
            return false;
        }
        try {
            answer.run();
            return true;
        } catch (IllegalStateException streamFailed) {
            isCancelled = true;
            log.debug("answer dropped: {}", streamFailed.getMessage());
            return false;
        }
    }
}
