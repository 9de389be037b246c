package io.vrmq.client.trace;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vrmq.client.ClientOptions;
import io.vrmq.client.Message;
import io.vrmq.client.ProducerOptions;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.message.MessageIdGenerator;
import io.vrmq.client.producer.BrokerFaultTable;
import io.vrmq.client.producer.MessageSender;
import io.vrmq.client.producer.PreparedSend;
import io.vrmq.client.producer.SendPreparation;
import io.vrmq.remoting.message.MessageConst;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends trace records to the trace topic in the background, as the official AsyncTraceDispatcher does: records
 * wait in a bounded queue (traceQueueCapacity; a record that finds it full is dropped and counted, never waited
 * for), go out traceMsgBatchNum at a time or after traceFlushIntervalMs, grouped per traced topic into trace messages
 * of at most about 128,000 characters whose keys are the traced message ids and keys (so a query by message id finds
 * them). Sends go through the broker the trace topic's route names, with a sender of their own that has no trace
 * hook: trace messages are never traced. A failed trace send is counted and logged, never reported to the user.
 * Confined to the client's context.
 */
public final class TraceDispatcher {
    /** The official trace producer's maxMessageSize: a trace message holds records up to this many characters. */
    static final int MAX_TRACE_MESSAGE_CHARS = 128_000;
    /** The official trace producer's sendMsgTimeout; also how long close waits for the last records. */
    static final long TRACE_SEND_TIMEOUT_MS = 5_000;
    /** The official dispatcher's sender threads: trace sends at once, beyond which records wait in the queue. */
    static final int MAX_SENDS_IN_FLIGHT = 4;
    /** No array reaches it: trace messages are sent uncompressed. */
    private static final int NEVER_COMPRESSED_BYTES = Integer.MAX_VALUE;
    /** The official trace producer group's prefix (TraceConstants.GROUP_NAME_PREFIX). */
    private static final String GROUP_NAME_PREFIX = "_INNER_TRACE_PRODUCER";
    private static final AtomicInteger GROUP_COUNTER = new AtomicInteger();
    private static final Logger log = LoggerFactory.getLogger(TraceDispatcher.class);

    private final ClientRuntime runtime;
    private final String traceTopic;
    private final int batchRecords;
    private final int capacityRecords;
    private final long flushIntervalMs;
    private final SendPreparation preparation;
    private final MessageSender sender;
    private final Deque<TraceRecord> queue = new ArrayDeque<>();
    private int sendsInFlight;
    private long droppedCount;
    private long sentRecordCount;
    private long failedRecordCount;
    private long failedSendCount;
    private Promise<Void> drained;
    private boolean isDrainFinished;

    private TraceDispatcher(ClientRuntime runtime, ClientOptions<?> options, ProducerOptions senderOptions) {
        this.runtime = runtime;
        this.traceTopic = options.getCustomizedTraceTopic();
        this.batchRecords = options.getTraceMsgBatchNum();
        this.capacityRecords = options.getTraceQueueCapacity();
        this.flushIntervalMs = options.getTraceFlushIntervalMs();
        this.preparation = new SendPreparation(senderOptions, MessageIdGenerator.forThisProcess());
        this.sender = new MessageSender(runtime, senderOptions, new BrokerFaultTable(System::currentTimeMillis));
    }

    /**
     * @param hostGroup the producer or consumer group traced, part of the trace producer's group name
     * @param type      "PRODUCE" or "CONSUME", as the official dispatcher names its type
     */
    public static TraceDispatcher create(ClientRuntime runtime, ClientOptions<?> options, String hostGroup,
                                         String type) {
        ProducerOptions senderOptions = new ProducerOptions().setNamesrvAddr(options.getNamesrvAddr())
            .setProducerGroup(GROUP_NAME_PREFIX + "-" + hostGroup + "-" + type + "-"
                + GROUP_COUNTER.incrementAndGet())
            .setSendTimeoutMs(TRACE_SEND_TIMEOUT_MS)
            // never compressed (the official trace producer compresses from 4 KiB): the broker's trace view reads
            // trace bodies as they are stored
            .setCompressOverBytes(NEVER_COMPRESSED_BYTES);
        return new TraceDispatcher(runtime, options, senderOptions);
    }

    public String traceTopic() {
        return traceTopic;
    }

    /** Starts the flush timer. Call on the context. */
    public void start() {
        runtime.periodic(flushIntervalMs, flushIntervalMs, () -> sendQueued(true));
    }

    /**
     * Queues records (all or none); drops them, counted, when the queue is full or the drain on close has finished
     * (records of a listener that is still running while its consumer closes are sent if the drain still runs).
     * Call on the context.
     */
    public void append(List<TraceRecord> records) {
        if (isDrainFinished || queue.size() + records.size() > capacityRecords) {
            droppedCount += records.size();
            if (Long.bitCount(droppedCount) == 1) {   // 1, 2, 4, 8, ...: a full queue does not flood the log
                log.warn("trace queue full (traceQueueCapacity {}) or closed: {} trace record(s) dropped so far",
                    capacityRecords, droppedCount);
            }
            return;
        }
        queue.addAll(records);
        sendQueued(false);
    }

    /** Sends what is queued and completes once it is sent, or after the trace send timeout. Call on the context. */
    public Future<Void> drain() {
        if (drained == null) {
            drained = Promise.promise();
            runtime.delay(TRACE_SEND_TIMEOUT_MS).onComplete(fired -> finishDrain());
            sendQueued(true);
            finishDrainIfIdle();
        }
        return drained.future();
    }

    /** Records dropped because the queue was full (or the client closing). Call on the context. */
    public long droppedCount() {
        return droppedCount;
    }

    /** Records the broker stored. Call on the context. */
    public long sentRecordCount() {
        return sentRecordCount;
    }

    /** Records whose trace send failed. Call on the context. */
    public long failedRecordCount() {
        return failedRecordCount;
    }

    /** @param isForced send a partial batch too (flush timer, close) */
    private void sendQueued(boolean isForced) {
        while (!queue.isEmpty() && sendsInFlight < MAX_SENDS_IN_FLIGHT
            && (isForced || drained != null || queue.size() >= batchRecords)) {
            List<TraceRecord> batch = new ArrayList<>(batchRecords);
            while (batch.size() < batchRecords && !queue.isEmpty()) {
                batch.add(queue.poll());
            }
            Map<String, List<TraceRecord>> byTopic = new LinkedHashMap<>();
            for (TraceRecord record : batch) {
                byTopic.computeIfAbsent(record.tracedTopic(), topic -> new ArrayList<>()).add(record);
            }
            byTopic.values().forEach(this::sendInMessages);
        }
    }

    /** Records of one traced topic, in trace messages of at most MAX_TRACE_MESSAGE_CHARS (one record may exceed). */
    private void sendInMessages(List<TraceRecord> records) {
        StringBuilder text = new StringBuilder(1024);
        Set<String> keys = new LinkedHashSet<>();
        int count = 0;
        for (TraceRecord record : records) {
            if (count > 0 && text.length() + record.text().length() > MAX_TRACE_MESSAGE_CHARS) {
                send(text.toString(), keys, count);
                text.setLength(0);
                keys = new LinkedHashSet<>();
                count = 0;
            }
            text.append(record.text());
            keys.addAll(record.keys());
            count++;
        }
        if (count > 0) {
            send(text.toString(), keys, count);
        }
    }

    private void send(String text, Set<String> keys, int records) {
        Future<?> sent;
        try {
            Message message = Message.of(traceTopic, text.getBytes(StandardCharsets.UTF_8))
                .withProperty(MessageConst.KEYS, String.join(" ", keys));
            PreparedSend prepared = preparation.single(message);
            sent = sender.send(prepared);
        } catch (RuntimeException e) {
            sent = Future.failedFuture(e);
        }
        sendsInFlight++;
        sent.onComplete(outcome -> {
            sendsInFlight--;
            if (outcome.succeeded()) {
                sentRecordCount += records;
            } else {
                failedRecordCount += records;
                failedSendCount++;
                if (Long.bitCount(failedSendCount) == 1 || log.isDebugEnabled()) {
                    log.warn("trace send of {} record(s) to {} failed ({} failed so far): {}", records, traceTopic,
                        failedRecordCount, outcome.cause().toString());
                }
            }
            sendQueued(false);
            finishDrainIfIdle();
        });
    }

    private void finishDrainIfIdle() {
        if (drained != null && queue.isEmpty() && sendsInFlight == 0) {
            finishDrain();
        }
    }

    private void finishDrain() {
        if (!queue.isEmpty()) {
            droppedCount += queue.size();
            log.warn("{} trace record(s) not sent within {} ms of close: dropped", queue.size(),
                TRACE_SEND_TIMEOUT_MS);
            queue.clear();
        }
        isDrainFinished = true;
        drained.tryComplete();
    }
}
