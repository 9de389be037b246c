package io.vrmq.store.queue;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-queue reserved offset bounds, kept durable in the {@link ReservedOffsetsFile}: the writer never hands out a
 * queue offset at or above its queue's bound. So after a machine crash, which under ASYNC_FLUSH can lose the
 * CommitLog and ConsumeQueue tail written since the last force (messages whose offsets producers were already
 * answered and consumers may have committed past), recovery starts each queue at max(recovered offset, bound) and
 * no offset is ever handed out twice.
 *
 * <p>Why bounds and not the offsets themselves: forcing a file per append would cost what SYNC_FLUSH costs. A bound
 * covers a block of offsets; only when a queue reaches it is a new bound (next offset + block) written and forced,
 * before the offset is handed out. A queue that uses its block up within {@link #QUICK_EXHAUST_MS} gets a block
 * twice as large (up to {@code reservedOffsetBlockMax}), one that takes longer than {@link #SLOW_EXHAUST_MS} half as
 * large (down to {@link #INITIAL_BLOCK}): busy queues rewrite rarely, and the gap a crash leaves in quiet queues
 * stays small. Without a renewer (below), every write also renews the other queues that used more than three
 * quarters of their block, so many busy queues share one force; the first write after the open covers every queue
 * the store knows - the recovered ones and those the broker declared from its topic table before serving - so
 * neither a restarted broker's queues nor a new broker's configured ones each wait for a force of their own. Queues
 * declared later (a topic created or grown at runtime) get their first bounds ahead, in one write for all
 * ({@link #coverAhead}). Why an append-only log: one small write and one force per renewal; the log is
 * compacted (rewritten atomically) at open and whenever it would pass {@code reservedOffsetFileMaxBytes}.
 *
 * <p>After a clean shutdown every offset handed out is in the forced ConsumeQueues, so bounds are not needed: close
 * empties the file ({@link #forgetAll}) and a clean open ignores it. After a crash the bounds read are kept in the
 * new file until the next clean shutdown, so a second crash before the recovered blanks reach disk still skips them.
 *
 * <p>Where the force runs. A queue's first bound, and a renewal the queue reaches before it was written, are
 * written on the store's writer thread (a worker, never an event loop), inside the append that needs it. Opened with
 * a renewer ({@link #open(Path, boolean, long, long, InstantSource, boolean)}), a queue that has used half of its
 * block asks the renewer thread ({@code vrmq-store-reserver}) for its next bound, so the writer does not wait for
 * that force: measured on a busy shared disk (benchmark/RESULTS.md, "Latency"), one force took 0.5-140 ms, and every
 * append queued behind it waited as long. The renewer writes every renewal asked for since its last write in one
 * record (one force), each queue's new bound being its current bound plus its (possibly grown) block, and publishes
 * the bounds only after the force. Without a renewer (the tests of the write pattern), renewals are written when a
 * queue reaches its bound, as the first ones are.
 *
 * <p>Only the writer's ASYNC_FLUSH appends reserve (see {@code StoreWriter}); recovery honours bounds whatever the
 * mode, so a store switched from ASYNC_FLUSH to SYNC_FLUSH across a crash still skips them. A truncation or a
 * switch to replication {@link #forgetAll forgets} them: the new master assigns those offsets.
 *
 * <p>Threads: {@link #cover} and {@link #coverAhead} on the writer; {@link #removeTopic} from any thread (topic
 * deletion); every write (the writer's, the renewer's, a removal's, {@link #forgetAll}) is synchronised, and a
 * renewal whose queue was forgotten meanwhile writes nothing. Open on the opening thread; {@link #recovered} from any
 * thread; {@link #close} once, by the store's close.
 */
public final class ReservedOffsets {
    /** Block of a queue's first reservation. */
    public static final long INITIAL_BLOCK = 64;
    /** A block used up faster than this doubles. */
    static final long QUICK_EXHAUST_MS = 1_000;
    /** A block that lasted longer than this halves. */
    static final long SLOW_EXHAUST_MS = 60_000;
    private static final Logger log = LoggerFactory.getLogger(ReservedOffsets.class);

    private final Path path;
    private final long blockMax;
    private final long fileMaxBytes;
    private final InstantSource clock;
    /** Null: renewals are written by the writer when a queue reaches its bound. */
    private final ExecutorService renewer;
    /** Queues that asked the renewer for their next bound, not yet written. */
    private final Queue<Reservation> renewalsAsked = new ConcurrentLinkedQueue<>();
    private final Map<String, Map<Integer, Reservation>> reservations = new ConcurrentHashMap<>();
    private volatile Map<String, Map<Integer, Long>> recovered;
    private ReservedOffsetsFile file;   // guarded by this
    private long writeCount;
    /** False until the first reservation since the open or {@link #forgetAll} (guarded by this). */
    private boolean hasCoveredKnownQueues;

    /**
     * Bound and block of one queue; bound 0 = nothing reserved yet. Bound and block are written under the lock and
     * read by the writer; {@code isRenewalAsked} is set by the writer and cleared by the renewer.
     */
    private static final class Reservation {
        final String topic;
        final int queueId;
        volatile long bound;
        volatile long block = INITIAL_BLOCK;
        long reservedAtMs;
        final AtomicBoolean isRenewalAsked = new AtomicBoolean();
        /** The bound when the renewal was asked: a renewer finding another one skips (the writer renewed). */
        volatile long askedAtBound;

        Reservation(String topic, int queueId) {
            this.topic = topic;
            this.queueId = queueId;
        }
    }

    private ReservedOffsets(Path path, long blockMax, long fileMaxBytes, InstantSource clock,
                            Map<String, Map<Integer, Long>> recovered, boolean renewsAhead) {
        this.path = path;
        this.blockMax = blockMax;
        this.fileMaxBytes = fileMaxBytes;
        this.clock = clock;
        this.recovered = recovered;
        this.renewer = renewsAhead ? Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "vrmq-store-reserver");
            thread.setDaemon(true);
            return thread;
        }) : null;
    }

    /**
     * Reads the file after a crash ({@code clean} false; throws IllegalStateException naming the file when it is
     * damaged), ignores it after a clean shutdown, and rewrites it: empty, or with the bounds read. Opening thread.
     */
    public static ReservedOffsets open(Path path, boolean clean, long blockMax, long fileMaxBytes,
                                       InstantSource clock) {
        return open(path, clean, blockMax, fileMaxBytes, clock, false);
    }

    /**
     * Like {@link #open(Path, boolean, long, long, InstantSource)}; with {@code renewsAhead}, a queue past half of its
     * block is renewed on the {@code vrmq-store-reserver} thread while the writer goes on (see the class comment).
     */
    public static ReservedOffsets open(Path path, boolean clean, long blockMax, long fileMaxBytes,
                                       InstantSource clock, boolean renewsAhead) {
        Map<String, Map<Integer, Long>> read = Map.of();
        if (!clean) {
            ReservedOffsetsFile.Contents contents = ReservedOffsetsFile.read(path);
            if (contents.hadTornTail()) {
                log.warn("reserved offsets file {}: torn last record ignored (it was never relied upon)", path);
            }
            read = contents.bounds();
        }
        ReservedOffsets reserved = new ReservedOffsets(path, blockMax, fileMaxBytes, clock, read, renewsAhead);
        read.forEach((topic, byId) -> byId.forEach((queueId, bound) ->
                reserved.reservation(topic, queueId).bound = bound));
        try {
            synchronized (reserved) {
                reserved.file = ReservedOffsetsFile.rewrite(path, reserved.snapshot());
            }
        } catch (RuntimeException e) {
            reserved.close();
            throw e;
        }
        return reserved;
    }

    /**
     * The bounds read at open after a crash (empty after a clean shutdown, and after {@link #forgetAll}): no queue
     * may start below them. Any thread.
     */
    public Map<String, Map<Integer, Long>> recovered() {
        return recovered;
    }

    /**
     * Makes sure every offset below {@code endOffset} of the queue is covered by a forced bound, writing a new one
     * first when needed. {@code nextOffsets} gives the other queues' next offsets, for renewing them in the same
     * write. Throws UncheckedIOException when the write fails: the caller must not hand the offsets out. Writer.
     */
    public void cover(String topic, int queueId, long endOffset, QueueOffsets nextOffsets) {
        Map<Integer, Reservation> byId = reservations.get(topic);
        Reservation reservation = byId == null ? null : byId.get(queueId);
        if (reservation == null || endOffset > reservation.bound) {
            reserve(topic, queueId, endOffset, nextOffsets);
        } else if (renewer != null && reservation.bound - endOffset < reservation.block / 2
                && reservation.isRenewalAsked.compareAndSet(false, true)) {
            reservation.askedAtBound = reservation.bound;
            askRenewal(reservation);
        }
    }

    /**
     * Queues the store was just told of (the broker's topic table) whose counters were just created at next offset
     * 0, so none of their offsets was handed out: their first bounds are written before their first appends need
     * them. Until the first write since the open (or {@link #forgetAll}) nothing is written here: that write covers
     * every known queue, these included. After it, one forced record covers them all: on the renewer thread when
     * there is one (an append that comes before it writes its queue's bound itself, as it would without this), else
     * now. Writer.
     */
    public void coverAhead(Map<String, List<Integer>> queueIdsByTopic) {
        List<Reservation> fresh = new ArrayList<>();
        synchronized (this) {
            if (!hasCoveredKnownQueues) {
                return;
            }
            queueIdsByTopic.forEach((topic, queueIds) -> queueIds.forEach(queueId -> {
                Reservation reservation = reservation(topic, queueId);
                if (reservation.bound == 0) {
                    fresh.add(reservation);
                }
            }));
            if (renewer == null && !fresh.isEmpty()) {
                writeFirstBounds(fresh);
                return;
            }
        }
        boolean isAsked = false;
        for (Reservation reservation : fresh) {
            if (reservation.isRenewalAsked.compareAndSet(false, true)) {
                reservation.askedAtBound = 0;   // the renewer writes 0 + block unless the writer got there first
                renewalsAsked.add(reservation);
                isAsked = true;
            }
        }
        if (isAsked) {
            try {
                renewer.execute(this::writeAskedRenewals);
            } catch (RejectedExecutionException closed) {
                fresh.forEach(reservation -> reservation.isRenewalAsked.set(false));   // closing: the writer covers
            }
        }
    }

    /** Stops the renewer after the renewal it is writing, if any; later renewals are written by the writer. */
    public void close() {
        if (renewer == null) {
            return;
        }
        renewer.shutdown();
        try {
            if (!renewer.awaitTermination(30, TimeUnit.SECONDS)) {
                log.warn("reserved offsets renewer {} still busy after 30 s at close", path);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void askRenewal(Reservation reservation) {
        renewalsAsked.add(reservation);
        try {
            renewer.execute(this::writeAskedRenewals);
        } catch (RejectedExecutionException closed) {
            reservation.isRenewalAsked.set(false);   // closing: the writer renews it when it reaches the bound
        }
    }

    /**
     * Renewer thread: one forced record for every renewal asked since the last one, then the new bounds. A queue
     * forgotten meanwhile (removed topic, {@link #forgetAll}) is skipped; so is one the writer renewed itself.
     */
    private synchronized void writeAskedRenewals() {
        List<Reservation> asked = new ArrayList<>();
        for (Reservation next = renewalsAsked.poll(); next != null; next = renewalsAsked.poll()) {
            asked.add(next);
        }
        long nowMs = clock.millis();
        Map<Reservation, Long> renewals = new HashMap<>();
        List<ReservedOffsetsFile.Entry> entries = new ArrayList<>();
        try {
            for (Reservation reservation : asked) {
                Map<Integer, Reservation> byId = reservations.get(reservation.topic);
                boolean isCurrent = byId != null && byId.get(reservation.queueId) == reservation;
                if (isCurrent && reservation.bound == reservation.askedAtBound && !renewals.containsKey(reservation)) {
                    long bound = reservation.bound + grownBlock(reservation, nowMs);
                    renewals.put(reservation, bound);
                    entries.add(new ReservedOffsetsFile.Entry(reservation.topic, reservation.queueId, bound));
                }
            }
            if (!entries.isEmpty()) {
                write(entries);   // forced before the writer may hand out any offset it covers
                renewals.forEach((reservation, bound) -> {
                    reservation.bound = bound;
                    reservation.reservedAtMs = nowMs;
                });
            }
        } catch (RuntimeException e) {
            // Nothing was published: the writer reaches the old bound and writes (and reports) the renewal itself.
            log.warn("reserved offsets file {}: renewing ahead failed; the writer renews at the bound", path, e);
        } finally {
            asked.forEach(reservation -> reservation.isRenewalAsked.set(false));
        }
    }

    /** Forgets the topic's bounds (topic deletion: its offsets start at 0 again) and records that. Any thread. */
    public synchronized void removeTopic(String topic) {
        Map<Integer, Reservation> removed = reservations.remove(topic);
        if (removed == null || removed.isEmpty()) {
            return;
        }
        List<ReservedOffsetsFile.Entry> forget = new ArrayList<>();
        removed.keySet().forEach(queueId -> forget.add(new ReservedOffsetsFile.Entry(topic, queueId, 0)));
        write(forget);
    }

    /**
     * Drops every bound and empties the file (forced, atomically): at a clean close, once every offset handed out is
     * in the forced ConsumeQueues, and when a truncation or a switch to replication makes the offsets above the kept
     * records the new master's to assign. Writer (or close, after the writer stopped).
     */
    public synchronized void forgetAll() {
        reservations.clear();
        hasCoveredKnownQueues = false;
        recovered = Map.of();
        file = ReservedOffsetsFile.rewrite(path, List.of());
        writeCount++;
    }

    /** Forced writes so far (tests, stats). */
    public synchronized long writeCount() {
        return writeCount;
    }

    /** The current bound of a queue, 0 when none. Any thread. */
    public long bound(String topic, int queueId) {
        Map<Integer, Reservation> byId = reservations.get(topic);
        Reservation reservation = byId == null ? null : byId.get(queueId);
        return reservation == null ? 0 : reservation.bound;
    }

    private synchronized void reserve(String topic, int queueId, long endOffset, QueueOffsets nextOffsets) {
        Reservation wanted = reservation(topic, queueId);
        if (endOffset <= wanted.bound) {
            return;
        }
        long nowMs = clock.millis();
        Map<Reservation, Long> renewals = new HashMap<>();
        renewals.put(wanted, endOffset + grownBlock(wanted, nowMs));
        List<ReservedOffsetsFile.Entry> entries = new ArrayList<>();
        entries.add(new ReservedOffsetsFile.Entry(topic, queueId, renewals.get(wanted)));
        if (!hasCoveredKnownQueues) {
            coverKnownQueues(wanted, nextOffsets, renewals, entries);
        } else if (renewer == null) {
            renewNearlyUsed(wanted, nextOffsets, renewals, entries);
        }
        write(entries);   // forced before any offset it covers is handed out
        renewals.forEach((reservation, bound) -> {
            reservation.bound = bound;
            reservation.reservedAtMs = nowMs;
        });
    }

    /**
     * The first reservation since the open (or since {@link #forgetAll}) also covers every other queue the store
     * knows and has no bound for: after a clean restart of a broker with 10,000 queues, each queue's first append
     * would otherwise wait for a forced write of its own (10,000 forces, each scanning every reservation). Queues
     * created later still take one write for their first bound.
     */
    private void coverKnownQueues(Reservation wanted, QueueOffsets nextOffsets, Map<Reservation, Long> renewals,
                                  List<ReservedOffsetsFile.Entry> entries) {
        hasCoveredKnownQueues = true;
        nextOffsets.forEach((otherTopic, otherId, next) -> {
            Reservation other = reservation(otherTopic, otherId);
            if (other != wanted && other.bound <= next) {
                renewals.put(other, next + other.block);
                entries.add(new ReservedOffsetsFile.Entry(otherTopic, otherId, next + other.block));
            }
        });
    }

    /** One forced record with the first bound of each queue (next offset 0, bound 0). Under the lock. */
    private void writeFirstBounds(List<Reservation> fresh) {
        long nowMs = clock.millis();
        List<ReservedOffsetsFile.Entry> entries = new ArrayList<>(fresh.size());
        for (Reservation reservation : fresh) {
            entries.add(new ReservedOffsetsFile.Entry(reservation.topic, reservation.queueId, reservation.block));
        }
        write(entries);   // forced before any offset it covers is handed out
        for (Reservation reservation : fresh) {
            reservation.bound = reservation.block;
            reservation.reservedAtMs = nowMs;
        }
    }

    /**
     * Without a renewer: the other queues that used more than three quarters of their block are renewed in the same
     * write, so many busy queues share one force. With one, they ask it at half of their block instead, and this
     * scan (every reservation, on every write) is left out.
     */
    private void renewNearlyUsed(Reservation wanted, QueueOffsets nextOffsets, Map<Reservation, Long> renewals,
                                 List<ReservedOffsetsFile.Entry> entries) {
        reservations.forEach((otherTopic, byId) -> byId.forEach((otherId, other) -> {
            long next = nextOffsets.peek(otherTopic, otherId);
            if (other != wanted && other.bound > 0 && other.bound - next < other.block / 4) {
                renewals.put(other, next + other.block);
                entries.add(new ReservedOffsetsFile.Entry(otherTopic, otherId, next + other.block));
            }
        }));
    }

    private long grownBlock(Reservation reservation, long nowMs) {
        if (reservation.reservedAtMs > 0) {
            long lastedMs = nowMs - reservation.reservedAtMs;
            if (lastedMs < QUICK_EXHAUST_MS) {
                reservation.block = Math.min(blockMax, reservation.block * 2);
            } else if (lastedMs > SLOW_EXHAUST_MS) {
                reservation.block = Math.max(INITIAL_BLOCK, reservation.block / 2);
            }
        }
        return reservation.block;
    }

    /** Appends {@code entries} (forced), or compacts the whole table when the log would grow past its limit. */
    private void write(List<ReservedOffsetsFile.Entry> entries) {
        if (file.sizeBytes() + ReservedOffsetsFile.recordBytes(entries) > fileMaxBytes) {
            List<ReservedOffsetsFile.Entry> all = snapshot();
            all.removeIf(entry -> overridden(entry, entries));
            all.addAll(entries);
            all.removeIf(entry -> entry.bound() == 0);
            file = ReservedOffsetsFile.rewrite(path, all);
            if (file.sizeBytes() > fileMaxBytes / 2) {
                log.warn("reserved offsets file {} holds {} bytes of live bounds, over half of its {}-byte limit;"
                        + " it is rewritten at most every few renewals", path, file.sizeBytes(), fileMaxBytes);
            }
        } else {
            file.append(entries);
        }
        writeCount++;
    }

    private static boolean overridden(ReservedOffsetsFile.Entry entry, List<ReservedOffsetsFile.Entry> newer) {
        for (ReservedOffsetsFile.Entry candidate : newer) {
            if (candidate.queueId() == entry.queueId() && candidate.topic().equals(entry.topic())) {
                return true;
            }
        }
        return false;
    }

    private List<ReservedOffsetsFile.Entry> snapshot() {
        List<ReservedOffsetsFile.Entry> all = new ArrayList<>();
        reservations.forEach((topic, byId) -> byId.forEach((queueId, reservation) -> {
            if (reservation.bound > 0) {
                all.add(new ReservedOffsetsFile.Entry(topic, queueId, reservation.bound));
            }
        }));
        return all;
    }

    private Reservation reservation(String topic, int queueId) {
        return reservations.computeIfAbsent(topic, t -> new ConcurrentHashMap<>())
                .computeIfAbsent(queueId, id -> new Reservation(topic, queueId));
    }
}
