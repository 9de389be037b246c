package io.vrmq.store;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The gate every CommitLog write passes, own appends ({@link StoreWriter}) and replicated bytes
 * ({@link ReplicaWriter}) alike:
 * <ul>
 * <li>one writer at a time: an overlapping call throws IllegalStateException rather than being serialised silently (a
 * lock would hide a broker bug and cost every write);</li>
 * <li>no writes after {@link #stop}, which first waits for the write in progress;</li>
 * <li>one kind of writer per open store: whichever of own appends or replication comes first. A replica that took
 * an append, or a master that took replicated bytes, would have two histories in one log. Reopening forgets it: the
 * broker decides its role by configuration. Controller mode switches the kind explicitly
 * ({@link MessageStore#switchToReplica}, {@link MessageStore#switchToOwnAppends}) when the broker's role changes;
 * nothing else ever changes it once claimed.</li>
 * </ul>
 * Threads: {@link #enter}/{@link #exit} on the writer; {@link #stop} from the closing thread; the flags are volatile.
 */
final class WriteGate {
    /** Who has written to this store since it was opened. */
    enum Writer { NONE, OWN_APPENDS, REPLICATION }

    private final AtomicBoolean writing = new AtomicBoolean();
    private volatile boolean stopped;
    private volatile Writer writer = Writer.NONE;

    /** Starts a write; throws IllegalStateException when another is in progress. Pair with {@link #exit}. */
    void enter() {
        if (!writing.compareAndSet(false, true)) {
            throw new IllegalStateException("concurrent write on " + Thread.currentThread().getName()
                    + ": MessageStore has a single writer; hand appends and replicated bytes to one thread");
        }
    }

    void exit() {
        writing.set(false);
    }

    boolean isStopped() {
        return stopped;
    }

    Writer writer() {
        return writer;
    }

    /** Records who writes this store from now on (a first write, or an explicit switch). Inside enter/exit only. */
    void claim(Writer kind) {
        writer = kind;
    }

    /** Refuses writes from now on, after waiting for one in progress. */
    void stop() {
        while (!writing.compareAndSet(false, true)) {
            Thread.onSpinWait();   // a write in progress finishes first: it must be dispatched and forced
        }
        stopped = true;
        writing.set(false);
    }
}
