/**
 * The vrmq store: Apache RocketMQ's on-disk formats (CommitLog, ConsumeQueue, IndexFile, checkpoint) in plain Java.
 *
 * <p>Entry point: {@link io.vrmq.store.MessageStore#open(StoreConfig, StoreOptions)}, which recovers and starts the
 * store's threads; {@link io.vrmq.store.MessageStore#close()} shuts it down cleanly.
 *
 * <p>Thread rules, in one place:
 * <ul>
 * <li>One writer: {@code append}/{@code appendBatch}/{@code appendReplicated} from one thread at a time (overlap
 * throws). An open store takes either its own appends or a master's bytes, whichever comes first.</li>
 * <li>Reads from any thread; they touch mapped memory, so not from an event loop.</li>
 * <li>{@link io.vrmq.store.AppendResult#durability()} completes on the flusher thread (or the scheduler on
 * timeout); {@link io.vrmq.store.DispatchListener} runs on the dispatcher thread. Both must return quickly.</li>
 * </ul>
 *
 * <p>Durability: SYNC_FLUSH futures complete after a force that covers the append (group commit: one force serves
 * every waiter registered before it started). ASYNC_FLUSH: a machine crash loses at most what was written since
 * the last interval force, but not the queue offsets of those messages: they are covered by forced reserved bounds
 * ({@link io.vrmq.store.queue.ReservedOffsets}) and stay blank after recovery. A process crash loses nothing that
 * {@code append} returned for.
 *
 * <p>Recovery: damaged records are skipped and reported ({@link io.vrmq.store.RecoveryReport}), never served;
 * queue offsets once handed out are never reused; cut or torn tails recover to the last whole record.
 */
package io.vrmq.store;
