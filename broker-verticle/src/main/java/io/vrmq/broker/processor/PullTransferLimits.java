package io.vrmq.broker.processor;

import io.vertx.core.json.JsonObject;

/**
 * How much one PULL_MESSAGE answer may carry, whatever the request asks for (RocketMQ's
 * {@code maxTransferCountOnMessageInMemory} and {@code maxTransferBytesOnMessageInMemory}, 32 messages and 256 KiB):
 * a consumer configured with a pull batch of thousands, or a header without {@code maxMsgBytes}, otherwise gets an
 * answer as large as the backlog, built in the broker's memory at once. The first message of an answer is always
 * sent, however large, so a message over the byte limit is still delivered. Apache applies smaller limits (8 and
 * 64 KiB) to reads it guesses are not in the page cache; here the reads run on the store's reader threads, away
 * from the event loops, so one pair of limits serves both.
 */
public record PullTransferLimits(int maxMessages, int maxBytes) {
    public PullTransferLimits {
        if (maxMessages <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("maxTransferCountOnMessageInMemory and maxTransferBytesOnMessageInMemory"
                + " must be above 0: " + maxMessages + ", " + maxBytes);
        }
    }

    public static PullTransferLimits from(JsonObject json) {
        return new PullTransferLimits(json.getInteger("maxTransferCountOnMessageInMemory"),
            json.getInteger("maxTransferBytesOnMessageInMemory"));
    }

    /** The count a pull that asked for {@code requested} may read. */
    int messages(int requested) {
        return Math.min(requested, maxMessages);
    }

    /** The bytes a pull that asked for {@code requested} may read. */
    int bytes(int requested) {
        return Math.min(requested, maxBytes);
    }
}
