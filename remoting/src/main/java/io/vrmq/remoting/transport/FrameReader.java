package io.vrmq.remoting.transport;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.parsetools.RecordParser;
import io.vrmq.remoting.protocol.Frame;

import java.util.function.Consumer;

/**
 * Cuts a connection's byte stream into frames. Reads the 4-byte length first and checks it against
 * {@code [MIN_FRAME_LENGTH, maxFrameBytes]} before buffering a single byte of the frame; a length out of range is
 * reported once and all later input is ignored (the owner closes the connection).
 *
 * <p>Not thread-safe: fed by the connection's event loop only.
 */
final class FrameReader implements Handler<Buffer> {
    private final RecordParser parser;
    private final int maxFrameBytes;
    private final Handler<Buffer> frameHandler;
    private final Consumer<String> malformedHandler;
    private boolean expectingLength = true;
    private boolean failed;

    FrameReader(int maxFrameBytes, Handler<Buffer> frameHandler, Consumer<String> malformedHandler) {
        this.maxFrameBytes = maxFrameBytes;
        this.frameHandler = frameHandler;
        this.malformedHandler = malformedHandler;
        this.parser = RecordParser.newFixed(Frame.FRAME_LENGTH_BYTES, this::onRecord);
    }

    @Override
    public void handle(Buffer chunk) {
        if (!failed) {
            parser.handle(chunk);
        }
    }

    /** True between a frame's first byte and its last: a close now cuts a frame in half. */
    boolean isInsideFrame() {
        return !expectingLength;
    }

    private void onRecord(Buffer record) {
        if (failed) {
            return;
        }
        if (expectingLength) {
            int frameLength = record.getInt(0);
            if (frameLength < Frame.MIN_FRAME_LENGTH || frameLength > maxFrameBytes) {
                fail("frame length " + frameLength + " outside [" + Frame.MIN_FRAME_LENGTH + ", maxFrameBytes "
                    + maxFrameBytes + "]");
                return;
            }
            expectingLength = false;
            parser.fixedSizeMode(frameLength);
            return;
        }
        expectingLength = true;
        parser.fixedSizeMode(Frame.FRAME_LENGTH_BYTES);
        frameHandler.handle(record);
    }

    void fail(String reason) {
        if (!failed) {
            failed = true;
            malformedHandler.accept(reason);
        }
    }
}
