package io.vrmq.broker.store;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vrmq.store.AppendResult;
import io.vrmq.store.FlushStatus;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The broker's way into the store, so that no event loop ever touches it: appends go to one writer thread (a
 * worker pool of size one, so they are applied one at a time in the order they were handed over), reads go to a
 * small reader pool. Results come back as futures on the caller's context.
 *
 * <p>Writer hand-off: with {@code maxAppendsPerWriterTurn} above 0 every write goes through {@link WriterTurns} (one
 * queue, many sends stored per writer turn, one hop back per event loop); with 0, each write is its own task on the
 * writer pool (one hand-off and one hop back per append). Both keep the hand-over order. Any thread may call.
 *
 * <p>Dispatch behind the writer (broker config {@code dispatchBehindWriter}): an append does not wake the store's
 * dispatcher thread; once its answer is on its way back (Vert.x completes the append's future after its task returns,
 * so the round is a task of its own, queued behind it, one for all the appends before it runs), the writer thread runs
 * the dispatch round itself when the dispatcher is parked ({@link MessageStore#dispatchBehindWriter}).
 */
public final class StoreAccess {
    private static final long MAX_TASK_SECONDS = 60;

    private final Vertx vertx;
    private final MessageStore store;
    private final WorkerExecutor writer;
    private final WorkerExecutor readers;
    /** Null when each write is its own writer task. */
    private final WriterTurns turns;
    private final boolean dispatchesBehindWriter;
    /** A dispatch round is queued on the writer. Writer thread only. */
    private boolean isDispatchQueued;
    private volatile LongConsumer appendListener = maxOffset -> {
    };

    /** One task per write (no batching): what the broker did before writer turns. */
    public StoreAccess(Vertx vertx, MessageStore store, int readerThreads) {
        this(vertx, store, readerThreads, 0, false);
    }

    /**
     * @param maxAppendsPerWriterTurn sends stored together in one writer turn; 0: each write is its own task
     * @param dispatchBehindWriter    the writer thread runs the dispatch rounds of its appends (class comment)
     */
    public StoreAccess(Vertx vertx, MessageStore store, int readerThreads, int maxAppendsPerWriterTurn,
                       boolean dispatchBehindWriter) {
        this.vertx = vertx;
        this.store = store;
        this.dispatchesBehindWriter = dispatchBehindWriter;
        store.setDispatchBehindWriter(dispatchBehindWriter);
        this.writer = vertx.createSharedWorkerExecutor("vrmq-store-writer", 1, MAX_TASK_SECONDS, TimeUnit.SECONDS);
        this.readers = vertx.createSharedWorkerExecutor("vrmq-store-reader", readerThreads, MAX_TASK_SECONDS,
            TimeUnit.SECONDS);
        this.turns = maxAppendsPerWriterTurn <= 0 ? null : new WriterTurns(vertx, store, writer,
            maxAppendsPerWriterTurn, maxOffset -> appendListener.accept(maxOffset));
    }

    /** The store itself, for reads that the caller already runs off the event loop. */
    public MessageStore store() {
        return store;
    }

    public Future<AppendResult> append(MessageToStore message) {
        if (turns != null) {
            return turns.append(message);
        }
        return writer.executeBlocking(() -> dispatchAfter(announced(store.append(message))), false);
    }

    public Future<AppendResult> appendBatch(List<MessageToStore> messages) {
        return onWriter(() -> announced(store.appendBatch(messages)));
    }

    /**
     * Called on the writer thread after every stored append with the new CommitLog max offset (replication wakes its
     * idle links). Must be cheap and must not block. Set once at start-up.
     */
    public void onAppended(LongConsumer listener) {
        this.appendListener = listener;
    }

    /** Writes CommitLog bytes received from the master (a slave's only writes); the new published max offset. */
    public Future<Long> replicate(long offset, ByteBuffer bytes) {
        return onWriter(() -> store.appendReplicated(offset, bytes));
    }

    /** Runs {@code task} on the writer thread, after every write handed over before it. */
    public <T> Future<T> afterQueuedWrites(Callable<T> task) {
        return onWriter(task);
    }

    /** Writer work in hand-over order, whichever hand-off is configured. */
    private <T> Future<T> onWriter(Callable<T> work) {
        return turns != null ? turns.run(work) : writer.executeBlocking(() -> dispatchAfter(work.call()), false);
    }

    /** Writer thread: queues the dispatch round behind the task that returns {@code result}, once for many. */
    private <T> T dispatchAfter(T result) {
        if (dispatchesBehindWriter && !isDispatchQueued && store.isAwaitingDispatchBehindWriter()) {
            isDispatchQueued = true;
            writer.executeBlocking(this::dispatchBehindWriter, false);
        }
        return result;
    }

    private Void dispatchBehindWriter() {
        isDispatchQueued = false;
        store.dispatchBehindWriter();
        return null;
    }

    private AppendResult announced(AppendResult result) {
        if (result.isOk()) {
            appendListener.accept(store.getCommitLogMaxOffset());
        }
        return result;
    }

    /** Completes on the caller's context when the append is durable (at once in ASYNC_FLUSH). */
    public Future<FlushStatus> durability(AppendResult result) {
        Context context = vertx.getOrCreateContext();
        return Future.fromCompletionStage(result.durability(), context);
    }

    /** Runs a read on the reader pool. */
    public <T> Future<T> read(Callable<T> read) {
        return readers.executeBlocking(read, false);
    }

    /** Closes the pools and then the store (flush, checkpoint, abort file removed), off the event loop. */
    public Future<Void> close() {
        return onWriter(() -> {
            store.close();
            return (Void) null;
        }).eventually(() -> Future.all(writer.close(), readers.close()));
    }
}
