package io.vrmq.broker.longpoll;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToLongBiFunction;

/**
 * Long polling: pulls that found nothing wait here, per queue, until the store's dispatcher reports a new message in
 * their queue (then they are re-run at once) or their suspend timeout passes (then they are re-run once and answer
 * whatever they find, usually PULL_NOT_FOUND). A held pull costs a map entry and a timer, no thread.
 *
 * <p>Two ways to wake (HotPathConfig {@code readHeldPullsOnDispatcher}): by default the dispatcher thread itself, at
 * the end of each dispatch round ({@link #onRoundDispatched}), takes the pulls its messages made ready and runs their
 * {@link HeldPull#wakeOffLoop}, which reads the store right there and hands the answer to the pull's event loop: one
 * thread hand-off between the dispatch and the answer. Otherwise each round schedules one hop to this service's
 * event loop, which wakes the pulls there; they read on a reader thread and answer back on the loop (three
 * hand-offs, each waking a parked thread). Many dispatches between two wake-ups coalesce into one pass.
 *
 * <p>Threads: {@link #hold} and {@link #releaseAll} on the owning verticle's event loop ({@code context}), where
 * the expiry timers fire too; {@link #holdOrAnswer} from any thread; {@link #onDispatched} and
 * {@link #onRoundDispatched} on the thread of a dispatch round (the dispatcher's, or the store writer's with
 * {@code dispatchBehindWriter}): rounds never overlap, but one round's wake pass may overlap the next round. The hold table is guarded by this object's lock, held only to
 * add or take pulls, never while a pull runs; a pull is taken exactly once (by a wake, its expiry or the release).
 */
public final class PullHoldService {
    private static final Logger log = LoggerFactory.getLogger(PullHoldService.class);

    private final Vertx vertx;
    private final Context context;
    private final int maxHeldPulls;
    private final boolean readsOnDispatcher;
    /** The queue's max offset now (in memory, no file access); null: a hold is not re-checked. */
    private final ToLongBiFunction<String, Integer> queueMaxOffset;
    private final Map<QueueKey, List<HeldPull>> heldByQueue = new HashMap<>();   // guarded by this
    /** The expiry timer of each held pull, cancelled when a message wakes it first (else it pins the pull). */
    private final Map<HeldPull, Long> expiryTimers = new IdentityHashMap<>();    // guarded by this
    private final Map<QueueKey, Long> advanced = new ConcurrentHashMap<>();
    private final AtomicBoolean isWakeScheduled = new AtomicBoolean();
    private volatile int heldCount;   // written under the lock
    private boolean isReleased;       // guarded by this

    /** Woken on {@code context} (the dispatcher hops there): what the broker did before readHeldPullsOnDispatcher. */
    public PullHoldService(Vertx vertx, Context context, int maxHeldPulls) {
        this(vertx, context, maxHeldPulls, false, null);
    }

    /**
     * @param readsOnDispatcher wake held pulls on the dispatcher thread at the end of each round (class comment)
     * @param queueMaxOffset    the queue's current max offset, read after a pull is held: a message dispatched
     *                          between the pull's read and its hold (whose wake-up found nothing to wake) wakes it
     *                          at once instead of leaving it to its suspend timeout or the queue's next message
     */
    public PullHoldService(Vertx vertx, Context context, int maxHeldPulls, boolean readsOnDispatcher,
                           ToLongBiFunction<String, Integer> queueMaxOffset) {
        this.vertx = vertx;
        this.context = context;
        this.maxHeldPulls = maxHeldPulls;
        this.readsOnDispatcher = readsOnDispatcher;
        this.queueMaxOffset = queueMaxOffset;
    }

    /**
     * Holds a pull; false when the limit is reached or the broker is stopping (the caller answers at once). Event
     * loop only.
     */
    public boolean hold(HeldPull pull) {
        QueueKey key = new QueueKey(pull.topic(), pull.queueId());
        boolean isHeld = false;
        synchronized (this) {
            if (isReleased) {
                return false;
            }
            if (heldCount < maxHeldPulls) {
                heldByQueue.computeIfAbsent(key, k -> new ArrayList<>()).add(pull);
                heldCount++;
                long delayMs = Math.max(1, pull.deadlineMs() - System.currentTimeMillis());
                expiryTimers.put(pull, vertx.setTimer(delayMs, id -> expire(key, pull)));
                isHeld = true;
            }
        }
        if (isHeld) {
            // The dispatcher writes a ConsumeQueue entry before it wakes: an entry it wrote before this pull was in
            // the table is seen here, one written after finds the pull there. Either way it is woken once.
            long maxOffset = queueMaxOffset == null ? -1 : queueMaxOffset.applyAsLong(pull.topic(), pull.queueId());
            if (maxOffset > pull.queueOffset()) {
                takeReady(key, maxOffset).forEach(ready -> ready.wake().run());
            }
            return true;
        }
        log.warn("maxHeldPullRequests {} reached: answering a pull of {}:{} at once", maxHeldPulls,
            pull.topic(), pull.queueId());
        return false;
    }

    /**
     * {@link #hold} from any thread: a pull that found nothing on one of several connection event loops is held on
     * this service's context (one hop); {@code answerNow} runs there when it cannot be held. The held pull's wake-up
     * then runs on this context or on the dispatcher thread (see the class comment).
     */
    public void holdOrAnswer(HeldPull pull, Runnable answerNow) {
        if (Vertx.currentContext() == context) {
            if (!hold(pull)) {
                answerNow.run();
            }
            return;
        }
        context.runOnContext(ignored -> {
            if (!hold(pull)) {
                answerNow.run();
            }
        });
    }

    /**
     * The broker is stopping: every held pull is re-run now and answers what it finds (its connection can then close
     * at once instead of holding the shutdown for the suspend timeout), and no pull is held any more. Event loop only.
     */
    public void releaseAll() {
        List<HeldPull> released = new ArrayList<>();
        synchronized (this) {
            isReleased = true;
            heldByQueue.values().forEach(released::addAll);
            heldByQueue.clear();
            heldCount = 0;
            expiryTimers.values().forEach(vertx::cancelTimer);
            expiryTimers.clear();
        }
        released.forEach(pull -> pull.wake().run());
    }

    public int heldCount() {
        return heldCount;
    }

    /** Expiry timers still armed; equals {@link #heldCount()} when no woken pull leaks its timer. */
    synchronized int armedExpiryTimers() {
        return expiryTimers.size();
    }

    /** Dispatcher thread: a message was dispatched to a queue. Cheap and non-blocking. */
    public void onDispatched(String topic, int queueId, long newMaxQueueOffset) {
        advanced.merge(new QueueKey(topic, queueId), newMaxQueueOffset, Math::max);
        if (!readsOnDispatcher && isWakeScheduled.compareAndSet(false, true)) {
            context.runOnContext(ignored -> wakeAdvancedQueues(false));
        }
    }

    /**
     * Dispatcher thread, after a round: with readsOnDispatcher, wakes the pulls the round made ready right here (each
     * reads and hands its answer to its event loop). Otherwise nothing (the round's hop is already scheduled).
     */
    public void onRoundDispatched() {
        if (readsOnDispatcher) {
            wakeAdvancedQueues(true);
        }
    }

    private void wakeAdvancedQueues(boolean isOnDispatcher) {
        isWakeScheduled.set(false);
        for (Map.Entry<QueueKey, Long> entry : advanced.entrySet()) {
            QueueKey key = entry.getKey();
            long maxOffset = entry.getValue();
            // Only the offset read here: one merged since (a round on another thread) stays for that round's pass.
            advanced.remove(key, maxOffset);
            for (HeldPull pull : takeReady(key, maxOffset)) {
                if (!isOnDispatcher) {
                    pull.wake().run();
                } else if (pull.wakeOffLoop() != null) {
                    pull.wakeOffLoop().run();
                } else {
                    context.runOnContext(ignored -> pull.wake().run());
                }
            }
        }
    }

    /** Takes the held pulls of {@code key} that a queue max offset of {@code maxOffset} answers; cancels their timers. */
    private synchronized List<HeldPull> takeReady(QueueKey key, long maxOffset) {
        List<HeldPull> held = heldByQueue.get(key);
        if (held == null) {
            return List.of();
        }
        List<HeldPull> ready = new ArrayList<>();
        held.removeIf(pull -> {
            boolean isReady = maxOffset > pull.queueOffset();
            if (isReady) {
                ready.add(pull);
            }
            return isReady;
        });
        if (held.isEmpty()) {
            heldByQueue.remove(key);
        }
        heldCount -= ready.size();
        for (HeldPull pull : ready) {
            Long timer = expiryTimers.remove(pull);
            if (timer != null) {
                vertx.cancelTimer(timer);
            }
        }
        return ready;
    }

    private void expire(QueueKey key, HeldPull pull) {
        synchronized (this) {
            expiryTimers.remove(pull);
            List<HeldPull> held = heldByQueue.get(key);
            if (held == null || !held.remove(pull)) {
                return;   // a message took it first
            }
            heldCount--;
            if (held.isEmpty()) {
                heldByQueue.remove(key);
            }
        }
        pull.wake().run();
    }

    private record QueueKey(String topic, int queueId) {
    }
}
