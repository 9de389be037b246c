package io.vrmq.store.commitlog;

import java.nio.ByteBuffer;

/**
 * The received start of the one item (record or filler) whose bytes have not all arrived yet, in heap memory. It
 * grows to the largest item seen (a record, or a filler of at most a record's size) and keeps that capacity.
 * Not thread-safe: owned by {@link ReplicaLog}.
 */
final class PendingItem {
    private static final int INITIAL_CAPACITY_BYTES = 4096;

    private ByteBuffer bytes = ByteBuffer.allocate(INITIAL_CAPACITY_BYTES);   // held bytes: [0, position)

    int sizeBytes() {
        return bytes.position();
    }

    boolean isEmpty() {
        return bytes.position() == 0;
    }

    /** The held bytes at positions [0, sizeBytes()); read with absolute access only. */
    ByteBuffer buffer() {
        return bytes;
    }

    /** Appends {@code length} bytes of {@code source} from position {@code at} (its own position is untouched). */
    void append(ByteBuffer source, int at, int length) {
        if (bytes.remaining() < length) {
            grow(bytes.position() + length);
        }
        bytes.put(bytes.position(), source, at, length);
        bytes.position(bytes.position() + length);
    }

    void clear() {
        bytes.clear();
    }

    private void grow(int neededBytes) {
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(neededBytes, bytes.capacity() * 2L));
        ByteBuffer grown = ByteBuffer.allocate(capacity);
        grown.put(0, bytes, 0, bytes.position());
        grown.position(bytes.position());
        bytes = grown;
    }
}
