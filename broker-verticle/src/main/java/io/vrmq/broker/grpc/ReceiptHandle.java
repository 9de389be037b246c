package io.vrmq.broker.grpc;

import io.vrmq.broker.pop.ExtraInfo;
import io.vrmq.broker.pop.PopNames;
import io.vrmq.grpc.proto.Code;

/**
 * The receipt handle gRPC consumers get with each message and hand back to ack it or change its invisible time:
 * the broker's POP receipt ({@link ExtraInfo}, 8 fields) and the message's commit-log offset, space-separated, the
 * 9-field layout of Apache's proxy (clients treat it as opaque; tools that read it keep working). Immutable.
 */
record ReceiptHandle(ExtraInfo receipt, String extraInfo, long commitLogOffset) {
    private static final int FIELDS = 9;

    static String format(String extraInfo, long commitLogOffset) {
        return extraInfo + " " + commitLogOffset;
    }

    /** Parses a handle; a handle that is not one of ours is INVALID_RECEIPT_HANDLE, as the proxy answers it. */
    static ReceiptHandle parse(String handle) {
        if (handle == null || handle.isBlank()) {
            throw invalid("receipt handle is empty");
        }
        String[] fields = handle.trim().split(" ");
        if (fields.length != FIELDS) {
            throw invalid("receipt handle is not valid: " + handle);
        }
        int lastSpace = handle.trim().lastIndexOf(' ');
        String extraInfo = handle.trim().substring(0, lastSpace);
        try {
            return new ReceiptHandle(ExtraInfo.parse(extraInfo), extraInfo, Long.parseLong(fields[FIELDS - 1]));
        } catch (RuntimeException e) {
            throw invalid("receipt handle is not valid: " + handle);
        }
    }

    /** The proxy refuses a handle whose invisible time has passed: the message may already be handed out again. */
    boolean isExpired(long nowMs) {
        return receipt.reviveTimeMs() <= nowMs;
    }

    /** The topic the message was popped from: its group's retry topic for a redelivered one. */
    String poppedTopic(String topic, String group) {
        String real = PopNames.realTopic(topic, group, receipt.retryMarker());
        if (real == null) {
            throw invalid("receipt handle names no known topic kind: " + receipt.retryMarker());
        }
        return real;
    }

    private static GrpcStatusException invalid(String message) {
        return new GrpcStatusException(Code.INVALID_RECEIPT_HANDLE, message);
    }
}
