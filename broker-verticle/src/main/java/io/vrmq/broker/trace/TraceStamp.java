package io.vrmq.broker.trace;

import io.vrmq.remoting.message.MessageConst;

import java.util.Map;

/**
 * What RocketMQ's broker writes into every message it takes by SEND_MESSAGE(_V2) or SEND_REPLY_MESSAGE(_V2): the
 * region ({@code MSG_REGION}) and the trace switch ({@code TRACE_ON}), and the same two as ext fields of the answer.
 * The official consumer's trace hook needs the property: a consumed message without {@code MSG_REGION} gets no
 * SubBefore/SubAfter record (its trace dispatcher drops contexts without a region). Stateless.
 */
public final class TraceStamp {
    public static final String DEFAULT_REGION = "DefaultRegion";
    public static final String TRACE_ON = "true";

    private TraceStamp() {
    }

    /** Adds the region and trace switch to a message's properties, replacing what a client may have put there. */
    public static void stamp(Map<String, String> properties) {
        properties.put(MessageConst.MSG_REGION, DEFAULT_REGION);
        properties.put(MessageConst.TRACE_SWITCH, TRACE_ON);
    }

    /** The same two as ext fields of a send's answer. */
    public static void stampReply(Map<String, String> header) {
        stamp(header);
    }
}
