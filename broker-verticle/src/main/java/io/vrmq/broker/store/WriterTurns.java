package io.vrmq.broker.store;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * The store's writer fed in turns (broker config {@code batchAppendsPerWriterTurn}): every piece of writer work (a
 * send's append, a batch, replicated bytes, a task that must follow the queued writes, the close) goes into one FIFO
 * queue, and one task on the writer thread drains it. Consecutive appends are stored together with
 * {@link MessageStore#appendEach}, at most {@code maxAppendsPerTurn} at a time: one dispatcher wake-up, one flush
 * waiter (SYNC_FLUSH group commit, signalled at once), one replication wake-up and one hop back per calling event
 * loop for the lot, where one task per append costs a writer hand-off and an event-loop hop each.
 *
 * <p>Order: items run in the order they were queued, whatever their kind, so an append handed over before an
 * {@code afterQueuedWrites} task is in the log when the task runs, and one connection's sends are stored in the order
 * its event loop handed them over. Results complete on the caller's context, in queue order per context.
 *
 * <p>Threads: {@link #append} and {@link #run} from any thread (usually event loops); the drain runs on the writer
 * (the single thread of {@code writer}); completions on each caller's context. A drain ends after
 * {@link #MAX_ITEMS_PER_DRAIN} items and queues itself again behind the work waiting, so the writer task stays short.
 */
final class WriterTurns {
    /** Bounds one writer task (Vert.x warns about a worker task that runs for a minute). */
    static final int MAX_ITEMS_PER_DRAIN = 16_384;

    private final Vertx vertx;
    private final MessageStore store;
    private final WorkerExecutor writer;
    private final int maxAppendsPerTurn;
    private final LongConsumer appended;
    private final ConcurrentLinkedQueue<Item> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean isDrainScheduled = new AtomicBoolean();

    /** @param appended called on the writer with the new max offset after each turn that stored something */
    WriterTurns(Vertx vertx, MessageStore store, WorkerExecutor writer, int maxAppendsPerTurn, LongConsumer appended) {
        this.vertx = vertx;
        this.store = store;
        this.writer = writer;
        this.maxAppendsPerTurn = maxAppendsPerTurn;
        this.appended = appended;
    }

    Future<AppendResult> append(MessageToStore message) {
        Promise<AppendResult> promise = Promise.promise();
        enqueue(new Append(message, vertx.getOrCreateContext(), promise));
        return promise.future();
    }

    <T> Future<T> run(Callable<T> work) {
        Promise<T> promise = Promise.promise();
        enqueue(new Task<>(work, vertx.getOrCreateContext(), promise));
        return promise.future();
    }

    private void enqueue(Item item) {
        queue.add(item);
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (isDrainScheduled.compareAndSet(false, true)) {
            writer.executeBlocking(this::drain, false).onFailure(this::failQueued);
        }
    }

    /** The writer pool refused the drain (closed after the store's close): nothing queued will run. */
    private void failQueued(Throwable error) {
        isDrainScheduled.set(false);
        Item item;
        while ((item = queue.poll()) != null) {
            if (item instanceof Append append) {
                append.context().runOnContext(ignored -> append.promise().tryFail(error));
            } else {
                Task<?> task = (Task<?>) item;
                task.context().runOnContext(ignored -> task.promise().tryFail(error));
            }
        }
    }

    /** Writer thread. Clears the flag before polling: an item queued after the last poll schedules a new drain. */
    private Void drain() {
        isDrainScheduled.set(false);
        List<Append> turn = new ArrayList<>();
        int items = 0;
        Item item;
        while (items < MAX_ITEMS_PER_DRAIN && (item = queue.poll()) != null) {
            items++;
            if (item instanceof Append append) {
                turn.add(append);
                if (turn.size() == maxAppendsPerTurn) {
                    store(turn);
                    turn = new ArrayList<>();
                }
            } else {
                store(turn);
                turn = new ArrayList<>();
                ((Task<?>) item).runAndComplete();
            }
        }
        store(turn);
        store.dispatchBehindWriter();   // with dispatchBehindWriter: every answer of this drain is on its way
        if (!queue.isEmpty()) {
            scheduleDrain();
        }
        return null;
    }

    /** One writer turn: the appends in order, then their results back to each caller's context. */
    private void store(List<Append> turn) {
        if (turn.isEmpty()) {
            return;
        }
        List<MessageToStore> messages = new ArrayList<>(turn.size());
        turn.forEach(append -> messages.add(append.message()));
        List<AppendResult> results;
        try {
            results = store.appendEach(messages);
        } catch (Throwable e) {
            // A broken invariant (a second writer), or an Error (a mapped-buffer fault on a full disk): every caller
            // of the turn gets the failure, as one executeBlocking task would, rather than no answer at all.
            completeOnContexts(turn, null, e);
            return;
        }
        try {
            if (results.stream().anyMatch(AppendResult::isOk)) {
                appended.accept(store.getCommitLogMaxOffset());   // replication first: a SYNC_MASTER send waits for it
            }
        } finally {
            completeOnContexts(turn, results, null);
        }
    }

    /** One hop per distinct context of the turn; each context completes its own appends in turn order. */
    private static void completeOnContexts(List<Append> turn, List<AppendResult> results, Throwable failure) {
        boolean[] isDone = new boolean[turn.size()];
        for (int first = 0; first < turn.size(); first++) {
            if (isDone[first]) {
                continue;
            }
            Context context = turn.get(first).context();
            List<Promise<AppendResult>> promises = new ArrayList<>();
            List<AppendResult> outcomes = new ArrayList<>();
            for (int i = first; i < turn.size(); i++) {
                if (!isDone[i] && turn.get(i).context() == context) {
                    isDone[i] = true;
                    promises.add(turn.get(i).promise());
                    outcomes.add(results == null ? null : results.get(i));
                }
            }
            context.runOnContext(ignored -> {
                for (int i = 0; i < promises.size(); i++) {
                    if (failure != null) {
                        promises.get(i).fail(failure);
                    } else {
                        promises.get(i).complete(outcomes.get(i));
                    }
                }
            });
        }
    }

    private sealed interface Item permits Append, Task {
    }

    private record Append(MessageToStore message, Context context, Promise<AppendResult> promise) implements Item {
    }

    private record Task<T>(Callable<T> work, Context context, Promise<T> promise) implements Item {
        void runAndComplete() {
            T result;
            try {
                result = work.call();
            } catch (Throwable e) {     // as executeBlocking: an Error fails the caller's future too
                context.runOnContext(ignored -> promise.fail(e));
                return;
            }
            context.runOnContext(ignored -> promise.complete(result));
        }
    }
}
