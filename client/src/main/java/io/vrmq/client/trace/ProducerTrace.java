package io.vrmq.client.trace;

import io.vrmq.client.SendResult;
import io.vrmq.client.SendStatus;
import io.vrmq.client.producer.PreparedSend;
import io.vrmq.client.producer.SendObserver;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.List;
import java.util.Map;

/**
 * The producer's trace hook (the official SendMessageTraceHookImpl): one Pub record per send attempt a broker
 * answered, with the region and trace switch of the broker's answer (a broker that answers TRACE_ON=false is not
 * traced), the master's address as store host and the attempt's round trip as cost. Sends to the trace topic are not
 * traced. Confined to the producer's context.
 */
public final class ProducerTrace implements SendObserver {
    private final TraceDispatcher dispatcher;
    private final String group;

    public ProducerTrace(TraceDispatcher dispatcher, String group) {
        this.dispatcher = dispatcher;
        this.group = group;
    }

    @Override
    public void answered(PreparedSend send, String brokerAddr, long startMs, RemotingCommand response,
                         SendResult result) {
        if (send.topic().startsWith(dispatcher.traceTopic())
            || "false".equals(response.ext(MessageConst.TRACE_SWITCH))) {
            return;
        }
        String region = response.ext(MessageConst.MSG_REGION);
        Map<String, String> properties = send.properties();
        TraceText.Pub pub = new TraceText.Pub(startMs, region == null || region.isEmpty() ? TraceText.DEFAULT_REGION
            : region, group, send.topic(), result.msgId(), properties.get(MessageConst.TAGS),
            properties.get(MessageConst.KEYS), brokerAddr, send.body().length(),
            (int) (System.currentTimeMillis() - startMs), msgType(properties), result.offsetMsgId(),
            result.status() == SendStatus.SEND_OK);
        dispatcher.append(List.of(TraceText.pub(pub)));
    }

    /** The official producer's choice: a delay or timer property wins over a transaction half. */
    static int msgType(Map<String, String> properties) {
        if (properties.containsKey(MessageConst.START_DELIVER_TIME)
            || properties.containsKey(MessageConst.DELAY_TIME_LEVEL)
            || properties.containsKey(MessageConst.TIMER_DELIVER_MS)
            || properties.containsKey(MessageConst.TIMER_DELAY_SEC)
            || properties.containsKey(MessageConst.TIMER_DELAY_MS)) {
            return TraceText.MSG_TYPE_DELAY;
        }
        return "true".equals(properties.get(MessageConst.TRANSACTION_PREPARED)) ? TraceText.MSG_TYPE_TRANS_HALF
            : TraceText.MSG_TYPE_NORMAL;
    }
}
