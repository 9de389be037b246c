package io.vrmq.broker.processor;

import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.store.AppendResult;
import io.vrmq.store.FlushStatus;

import java.util.HashMap;
import java.util.Map;

/** Turns store outcomes into send replies with RocketMQ's codes, header fields and remarks. */
final class StoreReplies {
    static final String DEFAULT_REGION = "DefaultRegion";

    private StoreReplies() {
    }

    /** SEND_OK or FLUSH_DISK_TIMEOUT: both carry where the message landed (the client builds a SendResult). */
    static RemotingCommand stored(RemotingCommand request, AppendResult result, FlushStatus flush, String msgId,
                                  int queueId, String uniqKey) {
        Map<String, String> header = new HashMap<>();
        header.put("msgId", msgId);
        header.put("queueId", Integer.toString(queueId));
        header.put("queueOffset", Long.toString(result.queueOffset()));
        if (uniqKey != null) {
            header.put("transactionId", uniqKey);
        }
        header.put(MessageConst.MSG_REGION, DEFAULT_REGION);
        header.put(MessageConst.TRACE_SWITCH, "true");
        boolean isFlushed = flush == FlushStatus.FLUSH_OK;
        return RemotingCommand.response(request, isFlushed ? ResponseCode.SUCCESS : ResponseCode.FLUSH_DISK_TIMEOUT,
            isFlushed ? null : "flush disk timeout: the message is stored but not yet forced to disk", header, null);
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
