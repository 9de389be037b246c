package io.vrmq.client.trace;

import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.message.MessageIdGenerator;
import io.vrmq.remoting.message.MessageConst;

import java.util.ArrayList;
import java.util.List;

/**
 * The push consumer's trace hook (the official ConsumeMessageTraceHookImpl): before the listener one SubBefore
 * record per message of the batch, after it one SubAfter per message with the same request id, the batch's cost
 * divided by its size, the listener's result and its ConsumeReturnType code. Messages the broker marked TRACE_ON=false
 * are left out. {@link #OFF} does nothing, for a consumer without trace. Confined to the consumer's context.
 */
public final class ConsumerTrace {
    public static final ConsumerTrace OFF = new ConsumerTrace(null, null);

    private final TraceDispatcher dispatcher;
    private final String group;
    private final MessageIdGenerator requestIds = MessageIdGenerator.forThisProcess();

    public ConsumerTrace(TraceDispatcher dispatcher, String group) {
        this.dispatcher = dispatcher;
        this.group = group;
    }

    /** What SubBefore recorded, for the SubAfter; null when nothing was traced. */
    public record Started(String requestId, long startMs, String regionId, String topic,
                          List<TraceText.Consumed> messages, int batchSize) {
    }

    /** Call right before the listener. */
    public Started before(List<ReceivedMessage> batch) {
        if (dispatcher == null || batch.isEmpty()) {
            return null;
        }
        List<TraceText.Consumed> traced = new ArrayList<>(batch.size());
        String region = null;
        String topic = null;
        for (ReceivedMessage message : batch) {
            if ("false".equals(message.property(MessageConst.TRACE_SWITCH))) {
                continue;
            }
            region = message.property(MessageConst.MSG_REGION);
            topic = topic == null ? message.topic() : topic;
            traced.add(new TraceText.Consumed(message.msgId(), message.reconsumeTimes(), message.keys()));
        }
        if (traced.isEmpty()) {
            return null;
        }
        // the official client sends nothing for a message without MSG_REGION; the region its producer reports
        // for a broker that names none is the better answer
        Started started = new Started(requestIds.next(), System.currentTimeMillis(),
            region == null || region.isEmpty() ? TraceText.DEFAULT_REGION : region, topic, List.copyOf(traced),
            batch.size());
        dispatcher.append(TraceText.subBefore(started.startMs(), started.regionId(), group, started.requestId(),
            topic, started.messages()));
        return started;
    }

    /**
     * Call once the listener's result is known.
     *
     * @param contextCode one of the TraceText.RETURN_* codes
     */
    public void after(Started started, boolean isSuccess, int contextCode) {
        if (started == null) {
            return;
        }
        long nowMs = System.currentTimeMillis();
        int costMs = (int) ((nowMs - started.startMs()) / started.batchSize());
        dispatcher.append(TraceText.subAfter(started.requestId(), costMs, isSuccess, contextCode, nowMs, group,
            started.topic(), started.messages()));
    }
}
