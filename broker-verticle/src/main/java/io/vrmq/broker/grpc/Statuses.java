package io.vrmq.broker.grpc;

import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Status;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RequestTimeoutException;

/**
 * The {@code Status} of RocketMQ 5 replies, and how a remoting reply code maps onto it (as Apache's proxy maps its
 * broker's codes: SYSTEM_BUSY is TOO_MANY_REQUESTS, which clients back off for; an unknown group or topic is
 * NOT_FOUND; flush and replication timeouts keep their meaning; anything else is INTERNAL_SERVER_ERROR). Errors go in
 * the reply's status and the call still ends with gRPC OK, as the proxy answers. Stateless.
 */
final class Statuses {
    private static final Status OK = Status.newBuilder().setCode(Code.OK).setMessage("OK").build();

    private Statuses() {
    }

    static Status ok() {
        return OK;
    }

    static Status of(Code code, String message) {
        return Status.newBuilder().setCode(code).setMessage(message == null ? "" : message).build();
    }

    /** A remoting reply as a status: OK for SUCCESS, else the mapped code with the broker's remark. */
    static Status fromReply(RemotingCommand reply) {
        if (reply.code() == ResponseCode.SUCCESS) {
            return OK;
        }
        return of(codeOf(reply.code()), reply.remark());
    }

    /** A failed call to the broker as a status (timeouts are PROXY_TIMEOUT, as the proxy names them). */
    static Status fromFailure(Throwable error) {
        if (error instanceof GrpcStatusException rejected) {
            return rejected.status();
        }
        if (error instanceof RequestTimeoutException) {
            return of(Code.PROXY_TIMEOUT, error.getMessage());
        }
        if (error instanceof RemotingCommandException command) {
            return of(codeOf(command.responseCode()), command.getMessage());
        }
        return of(Code.INTERNAL_SERVER_ERROR, String.valueOf(error.getMessage()));
    }

    static Code codeOf(int responseCode) {
        return switch (responseCode) {
            case ResponseCode.SUCCESS -> Code.OK;
            case ResponseCode.SYSTEM_BUSY, ResponseCode.POLLING_FULL, ResponseCode.FLOW_CONTROL ->
                Code.TOO_MANY_REQUESTS;
            case ResponseCode.REQUEST_CODE_NOT_SUPPORTED -> Code.NOT_IMPLEMENTED;
            case ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST -> Code.CONSUMER_GROUP_NOT_FOUND;
            case ResponseCode.TOPIC_NOT_EXIST -> Code.TOPIC_NOT_FOUND;
            case ResponseCode.NO_PERMISSION -> Code.FORBIDDEN;
            case ResponseCode.FLUSH_DISK_TIMEOUT -> Code.MASTER_PERSISTENCE_TIMEOUT;
            case ResponseCode.FLUSH_SLAVE_TIMEOUT -> Code.SLAVE_PERSISTENCE_TIMEOUT;
            case ResponseCode.SLAVE_NOT_AVAILABLE -> Code.HA_NOT_AVAILABLE;
            case ResponseCode.INVALID_PARAMETER -> Code.BAD_REQUEST;
            default -> Code.INTERNAL_SERVER_ERROR;
        };
    }

    static boolean isOk(Status status) {
        return status.getCode() == Code.OK;
    }
}
