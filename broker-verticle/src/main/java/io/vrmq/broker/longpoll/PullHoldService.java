package io.vrmq.broker.longpoll;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Long polling: pulls that found nothing wait here, per queue, until the store's dispatcher reports a new message in
 * their queue (then they are re-run at once) or their suspend timeout passes (then they are re-run once and answer
 * whatever they find, usually PULL_NOT_FOUND). A held pull costs a map entry and a timer, no thread.
 *
 * <p>Threads: the held pulls are confined to the owning verticle's event loop ({@code context});
 * {@link #holdOrAnswer} takes a pull from any thread there. The dispatcher
 * thread only records which queues advanced, in a concurrent map, and schedules one hop to the event loop; many
 * dispatches between two hops coalesce into one wake-up pass.
 */
public final class PullHoldService {
    private static final Logger log = LoggerFactory.getLogger(PullHoldService.class);

    private final Vertx vertx;
    private final Context context;
    private final int maxHeldPulls;
    private final Map<QueueKey, List<HeldPull>> heldByQueue = new HashMap<>();
    /** The expiry timer of each held pull, cancelled when a message wakes it first (else it pins the pull). */
    private final Map<HeldPull, Long> expiryTimers = new IdentityHashMap<>();
    private final Map<QueueKey, Long> advanced = new ConcurrentHashMap<>();
    private final AtomicBoolean isWakeScheduled = new AtomicBoolean();
    private int heldCount;
    private boolean isReleased;

    public PullHoldService(Vertx vertx, Context context, int maxHeldPulls) {
        this.vertx = vertx;
        this.context = context;
        this.maxHeldPulls = maxHeldPulls;
    }

    /**
     * Holds a pull; false when the limit is reached or the broker is stopping (the caller answers at once). Event
     * loop only.
     */
    public boolean hold(HeldPull pull) {
        if (isReleased) {
            return false;
        }
        if (heldCount >= maxHeldPulls) {
            log.warn("maxHeldPullRequests {} reached: answering a pull of {}:{} at once", maxHeldPulls,
                pull.topic(), pull.queueId());
            return false;
        }
        QueueKey key = new QueueKey(pull.topic(), pull.queueId());
        heldByQueue.computeIfAbsent(key, k -> new ArrayList<>()).add(pull);
        heldCount++;
        long delayMs = Math.max(1, pull.deadlineMs() - System.currentTimeMillis());
        expiryTimers.put(pull, vertx.setTimer(delayMs, id -> expire(key, pull)));
        return true;
    }

    /**
     * {@link #hold} from any thread: a pull that found nothing on one of several connection event loops is held on
     * this service's context (one hop); {@code answerNow} runs there when it cannot be held. The held pull's wake-up
     * then runs on this context too.
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
        isReleased = true;
        List<HeldPull> released = new ArrayList<>();
        heldByQueue.values().forEach(released::addAll);
        heldByQueue.clear();
        heldCount = 0;
        expiryTimers.values().forEach(vertx::cancelTimer);
        expiryTimers.clear();
        released.forEach(pull -> pull.wake().run());
    }

    public int heldCount() {
        return heldCount;
    }

    /** Expiry timers still armed; equals {@link #heldCount()} when no woken pull leaks its timer. Event loop only. */
    int armedExpiryTimers() {
        return expiryTimers.size();
    }

    /** Dispatcher thread: a message was dispatched to a queue. Cheap and non-blocking. */
    public void onDispatched(String topic, int queueId, long newMaxQueueOffset) {
        advanced.merge(new QueueKey(topic, queueId), newMaxQueueOffset, Math::max);
        if (isWakeScheduled.compareAndSet(false, true)) {
            context.runOnContext(ignored -> wakeAdvancedQueues());
        }
    }

    private void wakeAdvancedQueues() {
        isWakeScheduled.set(false);
        for (Iterator<Map.Entry<QueueKey, Long>> it = advanced.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<QueueKey, Long> entry = it.next();
            it.remove();
            wake(entry.getKey(), entry.getValue());
        }
    }

    private void wake(QueueKey key, long maxOffset) {
        List<HeldPull> held = heldByQueue.get(key);
        if (held == null) {
            return;
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
            pull.wake().run();
        }
    }

    private void expire(QueueKey key, HeldPull pull) {
        expiryTimers.remove(pull);
        List<HeldPull> held = heldByQueue.get(key);
        if (held != null && held.remove(pull)) {
            heldCount--;
            if (held.isEmpty()) {
                heldByQueue.remove(key);
            }
            pull.wake().run();
        }
    }

    private record QueueKey(String topic, int queueId) {
    }
}
