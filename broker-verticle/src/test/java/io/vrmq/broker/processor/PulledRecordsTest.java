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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A pull answer's body from the records a read found: copied into one pooled buffer, or wrapped as they are. */
class PulledRecordsTest {
    private static final int[] RECORD_SIZES = {97, 1_024, 1, 4_096, 333};

    @Test
    void theCopyHoldsTheRecordsBackToBackAndLeavesTheirSlicesAsTheyWere() {
        List<FoundMessage> messages = records();
        ByteBuf copy = PulledRecords.copy(result(messages), PooledByteBufAllocator.DEFAULT);
        try {
            assertTrue(copy.isDirect(), "a direct buffer: the socket writes it without another copy");
            assertEquals(1, copy.refCnt());
            assertArrayEquals(expected(messages), ByteBufUtil.getBytes(copy));
            for (FoundMessage message : messages) {
                assertEquals(0, message.record().position(), "the read's slices still start at their record");
                assertEquals(message.record().limit(), message.sizeBytes());
            }
        } finally {
            copy.release();
        }
    }

    @Test
    void theWrapHoldsTheSameBytesWithoutACopy() {
        List<FoundMessage> messages = records();
        ByteBuf wrapped = PulledRecords.wrap(result(messages));
        try {
            assertArrayEquals(expected(messages), ByteBufUtil.getBytes(wrapped));
        } finally {
            wrapped.release();
        }
    }

    /** Read-only slices of one direct "segment", as CommitLog.readRecord returns them, with a gap between each. */
    private static List<FoundMessage> records() {
        int total = 0;
        for (int size : RECORD_SIZES) {
            total += size + 7;
        }
        ByteBuffer segment = ByteBuffer.allocateDirect(total);
        for (int index = 0; index < total; index++) {
            segment.put(index, (byte) (index * 31));
        }
        ByteBuffer readOnly = segment.asReadOnlyBuffer();
        List<FoundMessage> messages = new ArrayList<>();
        int position = 0;
        for (int index = 0; index < RECORD_SIZES.length; index++) {
            messages.add(new FoundMessage(index, position, 0, readOnly.slice(position, RECORD_SIZES[index])));
            position += RECORD_SIZES[index] + 7;
        }
        return messages;
    }

    private static GetMessageResult result(List<FoundMessage> messages) {
        int totalBytes = messages.stream().mapToInt(FoundMessage::sizeBytes).sum();
        return new GetMessageResult(GetMessageStatus.FOUND, messages.size(), 0, messages.size(), messages,
            totalBytes, false);
    }

    private static byte[] expected(List<FoundMessage> messages) {
        ByteBuffer all = ByteBuffer.allocate(messages.stream().mapToInt(FoundMessage::sizeBytes).sum());
        for (FoundMessage message : messages) {
            all.put(message.record().duplicate());
        }
        return all.array();
    }
}
