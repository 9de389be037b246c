package io.vrmq.broker.processor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The body of a pull answer: the records a read found, back to back, exactly as stored (the client decodes RocketMQ's
 * record format). Two ways to build it, chosen by HotPathConfig's {@code copyPulledRecords} (default true: the copy
 * drains a backlog at 1.28x the throughput for 0.81x the broker CPU, benchmark/RESULTS.md, "Pull answers copied by
 * default"):
 * <ul>
 * <li>{@link #copy}: one pooled direct buffer that the records are copied into on the thread that read them, right
 * after the read checked them (so from the CPU cache). The socket then writes one buffer, and the answer owns it
 * ({@code RemotingCommand.responseWithOwnedBody}): released once written.</li>
 * <li>{@link #wrap}: a composite of the mapped slices themselves, nothing copied; every answer then builds a
 * component and a read-only wrapper per record, and its write a buffer array of them.</li>
 * </ul>
 * Stateless: any thread. {@link #copy} reads the mapped records, so call it where file access is allowed (a reader
 * thread or the store's dispatcher), never on an event loop.
 */
final class PulledRecords {
    private PulledRecords() {
    }

    /** The found records copied into one direct buffer of {@code allocator}; the caller owns it. */
    static ByteBuf copy(GetMessageResult result, ByteBufAllocator allocator) {
        List<FoundMessage> messages = result.messages();
        ByteBuf body = allocator.directBuffer(result.totalBytes(), result.totalBytes());
        try {
            for (int index = 0, count = messages.size(); index < count; index++) {
                ByteBuffer record = messages.get(index).record();
                body.writeBytes(record);   // moves the slice's position to its end: back to 0 below, as it was
                record.rewind();
            }
            return body;
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
    }

    /** The found records as one composite of their mapped slices, nothing copied. */
    static ByteBuf wrap(GetMessageResult result) {
        List<FoundMessage> messages = result.messages();
        ByteBuffer[] records = new ByteBuffer[messages.size()];
        for (int index = 0; index < records.length; index++) {
            records[index] = messages.get(index).record();
        }
        return Unpooled.wrappedBuffer(records);
    }
}
