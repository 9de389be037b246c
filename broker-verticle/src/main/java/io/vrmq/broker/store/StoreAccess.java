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
 */
public final class StoreAccess {
    private static final long MAX_TASK_SECONDS = 60;

    private final Vertx vertx;
    private final MessageStore store;
    private final WorkerExecutor writer;
    private final WorkerExecutor readers;
    /** Null when each write is its own writer task. */
    private final WriterTurns turns;
    private volatile LongConsumer appendListener = maxOffset -> {
    };

    /** One task per write (no batching): what the broker did before writer turns. */
    public StoreAccess(Vertx vertx, MessageStore store, int readerThreads) {
        this(vertx, store, readerThreads, 0);
    }

    /** @param maxAppendsPerWriterTurn sends stored together in one writer turn; 0: each write is its own task */
    public StoreAccess(Vertx vertx, MessageStore store, int readerThreads, int maxAppendsPerWriterTurn) {
        this.vertx = vertx;
        this.store = store;
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
        return writer.executeBlocking(() -> announced(store.append(message)), false);
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
        return turns != null ? turns.run(work) : writer.executeBlocking(work, false);
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
