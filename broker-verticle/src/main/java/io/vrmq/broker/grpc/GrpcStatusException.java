package io.vrmq.broker.grpc;

import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Status;

/** A request refused with a RocketMQ 5 status (a bad field, an unknown topic): answered, never logged as an error. */
final class GrpcStatusException extends RuntimeException {
    private final transient Status status;

    GrpcStatusException(Code code, String message) {
        super(message, null, false, false);
        this.status = Statuses.of(code, message);
    }

    Status status() {
        return status;
    }
}
