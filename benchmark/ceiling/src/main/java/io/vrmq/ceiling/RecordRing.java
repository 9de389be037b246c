package io.vrmq.ceiling;

/**
 * One queue's records by queue offset: their arena addresses and sizes in a growable ring that keeps the newest
 * {@code capacity}. Entries whose arena chunk was reused are dropped from the front when read. Event loop only.
 */
final class RecordRing {
    private static final int INITIAL_SLOTS = 1024;

    private final int capacity;
    private long[] addresses = new long[INITIAL_SLOTS];
    private int[] sizes = new int[INITIAL_SLOTS];
    private int head;
    private int size;
    private long minOffset;

    RecordRing(int capacity) {
        this.capacity = capacity;
    }

    /** Appends a record; returns its queue offset. */
    long append(long address, int bytes) {
        if (size == capacity) {
            dropOldest();
        } else if (size == addresses.length) {
            grow();
        }
        int slot = (head + size) % addresses.length;
        addresses[slot] = address;
        sizes[slot] = bytes;
        size++;
        return minOffset + size - 1;
    }

    /** Forgets the records the arena no longer holds (always the oldest). */
    void trim(RecordArena arena) {
        while (size > 0 && !arena.isLive(addresses[head])) {
            dropOldest();
        }
    }

    long minOffset() {
        return minOffset;
    }

    /** The offset the next append gets. */
    long maxOffset() {
        return minOffset + size;
    }

    /** The arena address of the record at {@code offset}, which must be in [minOffset, maxOffset). */
    long address(long offset) {
        return addresses[slot(offset)];
    }

    int size(long offset) {
        return sizes[slot(offset)];
    }

    private int slot(long offset) {
        return (int) ((head + (offset - minOffset)) % addresses.length);
    }

    private void dropOldest() {
        head = (head + 1) % addresses.length;
        size--;
        minOffset++;
    }

    private void grow() {
        int slots = (int) Math.min(capacity, addresses.length * 2L);
        long[] largerAddresses = new long[slots];
        int[] largerSizes = new int[slots];
        for (int index = 0; index < size; index++) {
            largerAddresses[index] = addresses[(head + index) % addresses.length];
            largerSizes[index] = sizes[(head + index) % addresses.length];
        }
        addresses = largerAddresses;
        sizes = largerSizes;
        head = 0;
    }
}
