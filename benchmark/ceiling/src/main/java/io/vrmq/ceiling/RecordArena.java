package io.vrmq.ceiling;

import java.nio.ByteBuffer;

/**
 * Where the ceiling keeps records: direct (off-heap) chunks written front to back, as a broker fills its mapped
 * CommitLog segments, so stored messages cost the garbage collector nothing. At most {@code maxChunks}; when they are
 * all full the oldest is reused and the records in it are gone (queues then start later). An address is the chunk's
 * sequence number (high 32 bits) and the position in it. Event loop only.
 */
final class RecordArena {
    private final int chunkBytes;
    private final ByteBuffer[] chunks;
    private long nextSeq;
    private long firstLiveSeq;
    private int usedInCurrent;

    RecordArena(int chunkBytes, int maxChunks) {
        this.chunkBytes = chunkBytes;
        this.chunks = new ByteBuffer[maxChunks];
    }

    /** Room for {@code bytes} in the newest chunk (a new one when it is full); returns its address. */
    long allocate(int bytes) {
        if (bytes > chunkBytes) {
            throw new IllegalArgumentException("record of " + bytes + " bytes > chunk of " + chunkBytes);
        }
        if (nextSeq == 0 || usedInCurrent + bytes > chunkBytes) {
            openChunk();
        }
        long address = ((nextSeq - 1) << 32) | usedInCurrent;
        usedInCurrent += bytes;
        return address;
    }

    /** The chunk holding {@code address}; write or read it with absolute positions only. */
    ByteBuffer chunk(long address) {
        return chunks[(int) ((address >>> 32) % chunks.length)];
    }

    static int position(long address) {
        return (int) address;
    }

    boolean isLive(long address) {
        return (address >>> 32) >= firstLiveSeq;
    }

    /** A read-only view of {@code length} bytes at {@code address}, for a response (no copy). */
    ByteBuffer slice(long address, int length) {
        return chunk(address).slice(position(address), length).asReadOnlyBuffer();
    }

    private void openChunk() {
        int slot = (int) (nextSeq % chunks.length);
        if (chunks[slot] == null) {
            chunks[slot] = ByteBuffer.allocateDirect(chunkBytes);
        } else {
            firstLiveSeq = nextSeq - chunks.length + 1;   // the chunk in this slot is reused: its records are gone
        }
        nextSeq++;
        usedInCurrent = 0;
    }
}
