package io.vrmq.remoting.transport;

import io.vertx.core.json.JsonObject;

/**
 * Wire limits of one role's remoting server or client, read from the flat role config.
 *
 * @param maxFrameBytes      largest frame length (bytes after the length field) we buffer; RocketMQ's cap is 16 MiB
 * @param maxHeaderBytes     largest header inside a frame; headers are small, a huge one is garbage
 * @param requestTimeoutMs   default time an outgoing request waits for its response
 * @param maxPendingRequests outgoing requests one connection may have waiting for a response
 * @param maxWritesPerFlush  a server connection's writes made outside a read (answers completed by another thread's
 *                           work, such as the store's writer) are flushed together at the end of the event loop's
 *                           queued tasks, at the latest after this many; 0 flushes every such write at once (one
 *                           socket write per answer, as Vert.x does on its own). See {@link FlushBatching}.
 */
public record RemotingLimits(int maxFrameBytes, int maxHeaderBytes, long requestTimeoutMs, int maxPendingRequests,
                             int maxWritesPerFlush) {
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
    public static final int DEFAULT_MAX_HEADER_BYTES = 1024 * 1024;
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 3_000L;
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 65_536;
    /** Netty's {@code FlushConsolidationHandler} default. */
    public static final int DEFAULT_MAX_WRITES_PER_FLUSH = 256;

    public RemotingLimits {
        require(maxFrameBytes >= 8, "maxFrameBytes", maxFrameBytes);
        require(maxHeaderBytes > 0 && maxHeaderBytes < maxFrameBytes, "maxHeaderBytes", maxHeaderBytes);
        require(requestTimeoutMs > 0, "requestTimeoutMs", requestTimeoutMs);
        require(maxPendingRequests > 0, "maxPendingRequests", maxPendingRequests);
        require(maxWritesPerFlush >= 0, "maxWritesPerFlush", maxWritesPerFlush);
    }

    /** Every write outside a read flushed at once (no batching): for clients and tests that set the four limits. */
    public RemotingLimits(int maxFrameBytes, int maxHeaderBytes, long requestTimeoutMs, int maxPendingRequests) {
        this(maxFrameBytes, maxHeaderBytes, requestTimeoutMs, maxPendingRequests, 0);
    }

    public static RemotingLimits defaults() {
        return new RemotingLimits(DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_HEADER_BYTES, DEFAULT_REQUEST_TIMEOUT_MS,
            DEFAULT_MAX_PENDING_REQUESTS, DEFAULT_MAX_WRITES_PER_FLUSH);
    }

    public static RemotingLimits from(JsonObject config) {
        return new RemotingLimits(
            config.getInteger("maxFrameBytes", DEFAULT_MAX_FRAME_BYTES),
            config.getInteger("maxHeaderBytes", DEFAULT_MAX_HEADER_BYTES),
            config.getLong("requestTimeoutMs", DEFAULT_REQUEST_TIMEOUT_MS),
            config.getInteger("maxPendingRequests", DEFAULT_MAX_PENDING_REQUESTS),
            config.getInteger("maxWritesPerFlush", DEFAULT_MAX_WRITES_PER_FLUSH));
    }

    public RemotingLimits withMaxFrameBytes(int bytes) {
        return new RemotingLimits(bytes, Math.min(maxHeaderBytes, bytes - 1), requestTimeoutMs, maxPendingRequests,
            maxWritesPerFlush);
    }

    private static void require(boolean holds, String setting, long value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
