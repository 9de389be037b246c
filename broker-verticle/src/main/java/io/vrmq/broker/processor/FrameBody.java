package io.vrmq.broker.processor;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * A request's body as the array the store copies it from: the received frame's own array and the body's range in
 * it when the frame is on the heap (the frame reader's frames are), else a copy. Storing from the frame saves a
 * copy of every send's body (some 10 % of the broker's allocation at 2,000 msgs/s: benchmark/RESULTS.md, "Allocation
 * and young pauses"). Safe because nobody writes a frame once it is cut (the frame reader hands on fresh arrays) and
 * the store reads the body only until the append returns; the request keeps the frame alive that long anyway.
 * Immutable; any thread (built on the send's event loop).
 */
record FrameBody(byte[] array, int offset, int length) {

    static FrameBody of(Buffer body) {
        ByteBuf bytes = body instanceof BufferInternal internal ? internal.getByteBuf() : null;
        if (bytes != null && bytes.hasArray()) {
            return new FrameBody(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
        }
        byte[] copy = body.getBytes();
        return new FrameBody(copy, 0, copy.length);
    }
}
