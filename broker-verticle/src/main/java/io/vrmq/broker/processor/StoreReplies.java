package io.vrmq.broker.processor;

import io.vrmq.broker.ha.SlaveAck;
import io.vrmq.broker.trace.TraceStamp;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.AppendResult;
import io.vrmq.store.FlushStatus;

import java.util.LinkedHashMap;
import java.util.Map;

/** Turns store outcomes into send replies with RocketMQ's codes, header fields and remarks. */
final class StoreReplies {
    /** Six fields without a rehash (the default 16 would do too; this says it). */
    private static final int LANDED_AT_CAPACITY = 8;

    private StoreReplies() {
    }

    /** SEND_OK or FLUSH_DISK_TIMEOUT: both carry where the message landed (the client builds a SendResult). */
    static RemotingCommand stored(RemotingCommand request, AppendResult result, FlushStatus flush, String msgId,
                                  int queueId, String uniqKey) {
        boolean isFlushed = flush == FlushStatus.FLUSH_OK;
        return RemotingCommand.response(request, isFlushed ? ResponseCode.SUCCESS : ResponseCode.FLUSH_DISK_TIMEOUT,
            isFlushed ? null : "flush disk timeout: the message is stored but not yet forced to disk",
            landedAt(result, msgId, queueId, uniqKey), null);
    }

    /**
     * SYNC_MASTER, after the flush: SEND_OK once a slave has it, else SLAVE_NOT_AVAILABLE or FLUSH_SLAVE_TIMEOUT;
     * the message is stored in every case, so each carries where it landed (the client reports the status).
     */
    static RemotingCommand replicated(RemotingCommand request, AppendResult result, SlaveAck ack, String msgId,
                                      int queueId, String uniqKey) {
        int code = switch (ack) {
            case OK -> ResponseCode.SUCCESS;
            case TIMEOUT -> ResponseCode.FLUSH_SLAVE_TIMEOUT;
            case NOT_AVAILABLE -> ResponseCode.SLAVE_NOT_AVAILABLE;
            case IN_SYNC_REPLICAS_NOT_ENOUGH -> ResponseCode.SYSTEM_ERROR;
        };
        String remark = switch (ack) {
            case OK -> null;
            case TIMEOUT -> "flush slave timeout: the message is stored on the master, no slave acknowledged it in time";
            case NOT_AVAILABLE -> "slave not available: the message is stored on the master only";
            case IN_SYNC_REPLICAS_NOT_ENOUGH -> "in-sync replicas not enough";
        };
        return RemotingCommand.response(request, code, remark, landedAt(result, msgId, queueId, uniqKey), null);
    }

    /**
     * Built in the order the header is written (the official encoder's: alphabetical, capitals first), so that the
     * writer takes the map as it iterates instead of sorting a copy of its keys. {@link TraceStamp}'s two fields
     * (MSG_REGION, TRACE_ON) sort before the lower-case ones.
     */
    private static Map<String, String> landedAt(AppendResult result, String msgId, int queueId, String uniqKey) {
        Map<String, String> header = new LinkedHashMap<>(LANDED_AT_CAPACITY);
        TraceStamp.stampReply(header);
        header.put("msgId", msgId);
        header.put("queueId", Integer.toString(queueId));
        header.put("queueOffset", Long.toString(result.queueOffset()));
        if (uniqKey != null) {
            header.put("transactionId", uniqKey);
        }
        return header;
    }

    /** A refused append: nothing was stored. */
    static RemotingCommand refused(RemotingCommand request, AppendResult result) {
        int code = switch (result.status()) {
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED -> ResponseCode.MESSAGE_ILLEGAL;
            case SERVICE_NOT_AVAILABLE, DISK_FULL -> ResponseCode.SERVICE_NOT_AVAILABLE;
            case PUT_OK -> throw new IllegalStateException("PUT_OK is not a refusal");
        };
        return RemotingCommand.failure(request, code, result.status() + ": " + result.remark());
    }
}
