package io.vrmq.remoting.transport;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.protocol.Frame;

import java.util.function.Consumer;

/**
 * Cuts a connection's byte stream into frames. Reads the 4-byte length first and checks it against
 * {@code [MIN_FRAME_LENGTH, maxFrameBytes]} before buffering a single byte of the frame; a length out of range is
 * reported once and all later input is ignored (the owner closes the connection).
 *
 * <p>What is copied. A chunk that is exactly one whole frame (length and frame, the common case below saturation:
 * one request per read) is handed on as a slice of the chunk, without a copy. Every other frame is copied once, into
 * a buffer of exactly its length: frames that share a chunk (so a frame the owner keeps, such as a held pull whose
 * decoded header reads the frame's bytes in place, never pins its neighbours), and frames that span chunks. Vert.x's
 * {@code RecordParser}, used before, copied every frame out of its accumulated input and compacted that input after
 * each chunk: some 28 % of the broker's allocation at 2,000 msgs/s (benchmark/RESULTS.md, "End-to-end tail").
 *
 * <p>Not thread-safe: fed by the connection's event loop only.
 */
final class FrameReader implements Handler<Buffer> {
    /** A frame that spans chunks gathers into a buffer of at most this much at first, grown as its bytes arrive. */
    private static final int PENDING_INITIAL_MAX_BYTES = 64 * 1024;

    private final int maxFrameBytes;
    private final Handler<Buffer> frameHandler;
    private final Consumer<String> malformedHandler;
    /** The bytes of an unfinished length field or frame, gathered across chunks; null when there are none. */
    private Buffer pending;
    /** The length of the frame being read, or -1 while the next thing expected is a length field. */
    private int frameLength = -1;
    private boolean failed;

    FrameReader(int maxFrameBytes, Handler<Buffer> frameHandler, Consumer<String> malformedHandler) {
        this.maxFrameBytes = maxFrameBytes;
        this.frameHandler = frameHandler;
        this.malformedHandler = malformedHandler;
    }

    @Override
    public void handle(Buffer chunk) {
        if (failed) {
            return;
        }
        int position = pending == null ? 0 : completePending(chunk);
        if (position < 0) {
            return;   // all of the chunk went into the unfinished length field or frame
        }
        if (position == 0 && isOneWholeFrame(chunk)) {
            deliver(chunk.slice(Frame.FRAME_LENGTH_BYTES, chunk.length()));
            return;
        }
        readFrames(chunk, position);
    }

    /** True between a frame's first byte and its last: a close now cuts a frame in half. */
    boolean isInsideFrame() {
        return frameLength >= 0 || pending != null;
    }

    void fail(String reason) {
        if (!failed) {
            failed = true;
            pending = null;
            malformedHandler.accept(reason);
        }
    }

    /** Whole length fields and frames from {@code position} on; the rest of the chunk is kept in {@link #pending}. */
    private void readFrames(Buffer chunk, int position) {
        int end = chunk.length();
        while (!failed && position < end) {
            if (frameLength < 0) {
                if (end - position < Frame.FRAME_LENGTH_BYTES) {
                    pending = Buffer.buffer(Frame.FRAME_LENGTH_BYTES).appendBuffer(chunk, position, end - position);
                    return;
                }
                acceptLength(chunk.getInt(position));
                position += Frame.FRAME_LENGTH_BYTES;
            } else if (end - position >= frameLength) {
                // A copy (see the class comment), made once: Buffer.getBuffer copies twice (into a byte[], then
                // into a new buffer), which was about a fifth of a SYNC_MASTER master's allocation ("SYNC_MASTER tail")
                Buffer frame = Buffer.buffer(frameLength).appendBuffer(chunk, position, frameLength);
                position += frameLength;
                frameLength = -1;
                deliver(frame);
            } else {
                pending = Buffer.buffer(Math.min(frameLength, PENDING_INITIAL_MAX_BYTES))
                    .appendBuffer(chunk, position, end - position);
                return;
            }
        }
    }

    /**
     * Adds the chunk's first bytes to {@link #pending} until its length field or frame is whole, and acts on it;
     * returns where the rest of the chunk starts, or -1 when the whole chunk was taken and more is still missing.
     */
    private int completePending(Buffer chunk) {
        int wanted = frameLength < 0 ? Frame.FRAME_LENGTH_BYTES : frameLength;
        int taken = Math.min(wanted - pending.length(), chunk.length());
        pending.appendBuffer(chunk, 0, taken);
        if (pending.length() < wanted) {
            return -1;
        }
        Buffer whole = pending;
        pending = null;
        if (frameLength < 0) {
            acceptLength(whole.getInt(0));
        } else {
            frameLength = -1;
            deliver(whole);
        }
        return failed || taken == chunk.length() ? -1 : taken;
    }

    private boolean isOneWholeFrame(Buffer chunk) {
        if (frameLength >= 0 || chunk.length() < Frame.FRAME_LENGTH_BYTES) {
            return false;
        }
        int length = chunk.getInt(0);
        return length == chunk.length() - Frame.FRAME_LENGTH_BYTES && isInRange(length);
    }

    /** Starts a frame of {@code length} bytes, or fails the reader when the length is out of range. */
    private void acceptLength(int length) {
        if (!isInRange(length)) {
            fail("frame length " + length + " outside [" + Frame.MIN_FRAME_LENGTH + ", maxFrameBytes "
                + maxFrameBytes + "]");
            return;
        }
        frameLength = length;
    }

    private boolean isInRange(int length) {
        return length >= Frame.MIN_FRAME_LENGTH && length <= maxFrameBytes;
    }

    private void deliver(Buffer frame) {
        if (!failed) {
            frameHandler.handle(frame);
        }
    }
}
