package io.vrmq.ceiling;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vrmq.remoting.protocol.RemotingCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Long polling, the cheapest way: a pull that found nothing waits for the next send to its queue or for its suspend
 * time, at most {@code maxHeldPulls} at once (one over that is answered at once). Event loop only.
 */
final class HeldPulls {
    private final Vertx vertx;
    private final int maxHeldPulls;
    private final Map<QueueKey, List<Held>> byQueue = new HashMap<>();
    private int heldCount;

    HeldPulls(Vertx vertx, int maxHeldPulls) {
        this.vertx = vertx;
        this.maxHeldPulls = maxHeldPulls;
    }

    /**
     * Holds a pull; {@code answer} builds its reply when a send wakes it, {@code timedOut} when its time is up.
     * Returns false (nothing held) when {@code maxHeldPulls} are already waiting.
     */
    boolean hold(QueueKey key, long suspendMs, Promise<RemotingCommand> reply,
                 Function<QueueKey, RemotingCommand> answer, RemotingCommand timedOut) {
        if (heldCount >= maxHeldPulls) {
            return false;
        }
        Held held = new Held(reply, answer);
        held.timerId = vertx.setTimer(suspendMs, id -> {
            List<Held> waiting = byQueue.get(key);
            if (waiting != null && waiting.remove(held)) {
                heldCount--;
                reply.tryComplete(timedOut);
            }
        });
        byQueue.computeIfAbsent(key, created -> new ArrayList<>()).add(held);
        heldCount++;
        return true;
    }

    /** A message arrived on {@code key}: every pull held on it is answered now. */
    void wake(QueueKey key) {
        List<Held> waiting = byQueue.remove(key);
        if (waiting == null) {
            return;
        }
        heldCount -= waiting.size();
        for (Held held : waiting) {
            vertx.cancelTimer(held.timerId);
            held.reply.tryComplete(held.answer.apply(key));
        }
    }

    private static final class Held {
        final Promise<RemotingCommand> reply;
        final Function<QueueKey, RemotingCommand> answer;
        long timerId;

        Held(Promise<RemotingCommand> reply, Function<QueueKey, RemotingCommand> answer) {
            this.reply = reply;
            this.answer = answer;
        }
    }
}
