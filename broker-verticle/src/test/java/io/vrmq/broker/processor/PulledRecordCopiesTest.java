package io.vrmq.broker.processor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.GetMessageStatus;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copied pull answers take their memory from a pool of their own, bounded by maxCopiedPullBytes: past the bound a read
 * gets no copy (its answer wraps the mapped slices), and once the copies are released the pool keeps at most a chunk
 * per arena.
 */
class PulledRecordCopiesTest {
    private static final int CHUNK_BYTES = PooledByteBufAllocator.defaultPageSize()
        << PooledByteBufAllocator.defaultMaxOrder();
    private static final int RECORD_BYTES = 64 * 1024;

    @Test
    void zeroNeverCopies() {
        PulledRecordCopies copies = new PulledRecordCopies(0);
        assertNull(copies.copyOrNull(result(4)));
        assertThrows(IllegalArgumentException.class, () -> new PulledRecordCopies(-1));
    }

    @Test
    void nothingFoundIsNoCopy() {
        assertNull(new PulledRecordCopies(CHUNK_BYTES).copyOrNull(result(0)));
    }

    @Test
    void pastTheBoundReadsGetNoCopyAndReleasedCopiesGiveTheMemoryBack() {
        PulledRecordCopies copies = new PulledRecordCopies(3L * CHUNK_BYTES);
        GetMessageResult quarterChunk = result(CHUNK_BYTES / 4 / RECORD_BYTES);
        List<ByteBuf> held = new ArrayList<>();
        ByteBuf copy;
        while ((copy = copies.copyOrNull(quarterChunk)) != null) {
            assertArrayEquals(expected(quarterChunk), ByteBufUtil.getBytes(copy));
            held.add(copy);
            assertTrue(held.size() <= 12, "the pool passed its bound: " + copies.heldBytes() + " bytes");
        }
        assertTrue(held.size() >= 8, "it copied while under the bound: " + held.size());
        assertTrue(copies.heldBytes() <= 3L * CHUNK_BYTES, copies.heldBytes() + " bytes held");

        held.forEach(ByteBuf::release);
        assertTrue(copies.heldBytes() <= 2L * CHUNK_BYTES, "released copies still hold " + copies.heldBytes());
        ByteBuf again = copies.copyOrNull(quarterChunk);
        assertNotNull(again, "copies again once the memory is back");
        again.release();
    }

    /** {@code count} records of RECORD_BYTES, read-only slices of one direct "segment" as the store returns them. */
    private static GetMessageResult result(int count) {
        ByteBuffer segment = ByteBuffer.allocateDirect(Math.max(1, count * RECORD_BYTES));
        for (int index = 0; index < segment.capacity(); index++) {
            segment.put(index, (byte) (index * 31));
        }
        ByteBuffer readOnly = segment.asReadOnlyBuffer();
        List<FoundMessage> messages = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            messages.add(new FoundMessage(index, (long) index * RECORD_BYTES, 0,
                readOnly.slice(index * RECORD_BYTES, RECORD_BYTES)));
        }
        return new GetMessageResult(count == 0 ? GetMessageStatus.NO_MATCHED_MESSAGE : GetMessageStatus.FOUND, count,
            0, count, messages, count * RECORD_BYTES, false);
    }

    private static byte[] expected(GetMessageResult result) {
        ByteBuffer all = ByteBuffer.allocate(result.totalBytes());
        result.messages().forEach(message -> all.put(message.record().duplicate()));
        return all.array();
    }
}
