package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.PrintThreadStackTraceCommand;
import io.vrmq.grpc.proto.Status;
import io.vrmq.grpc.proto.TelemetryCommand;
import io.vrmq.grpc.proto.VerifyMessageCommand;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestProcessor;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The admin questions the broker relays to a consumer (GET_CONSUMER_RUNNING_INFO, CONSUME_MESSAGE_DIRECTLY), asked
 * of a gRPC client the way Apache's proxy asks it: a PrintThreadStackTraceCommand or VerifyMessageCommand with a
 * nonce on its Telemetry stream; the client answers on the stream (ThreadStackTrace, VerifyMessageResult, with a
 * status) and that becomes the remoting reply: a ConsumerRunningInfo with the stack, or a ConsumeMessageDirectlyResult
 * (OK: CR_SUCCESS, FAILED_TO_CONSUME_MESSAGE: CR_LATER, MESSAGE_CORRUPTED: CR_RETURN_NULL). A client that does not
 * answer within {@code answerTimeoutMs} gets the broker a SYSTEM_ERROR. Requests arrive on the link's event loop,
 * answers on the endpoint's (the same loop); the pending table is thread-safe anyway.
 */
final class ClientCommands implements RequestProcessor {
    private final Vertx vertx;
    private final GrpcSessions sessions;
    private final RemotingJson json;
    private final long answerTimeoutMs;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /** A question sent; {@code answer} turns the client's status and text into the remoting reply. */
    private record Pending(Promise<RemotingCommand> reply, RemotingCommand request, long timerId, boolean isVerify) {
    }

    ClientCommands(Vertx vertx, GrpcSessions sessions, RemotingJson json, long answerTimeoutMs) {
        this.vertx = vertx;
        this.sessions = sessions;
        this.json = json;
        this.answerTimeoutMs = answerTimeoutMs;
    }

    @Override
    public Future<RemotingCommand> process(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        GrpcSessions.Session session = sessions.get(header.requiredString("clientId"));
        if (session == null || session.telemetry() == null) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "gRPC client " + header.requiredString("clientId") + " has no open Telemetry stream"));
        }
        boolean isVerify = request.code() == RequestCode.CONSUME_MESSAGE_DIRECTLY;
        if (!isVerify && !header.optionalBoolean("jstackEnable", false)) {
            // Nothing to ask the client: the SDKs report no queues or statistics over gRPC.
            return Future.succeededFuture(RemotingCommand.success(request, json.encode(runningInfo(null))));
        }
        String nonce = UUID.randomUUID().toString();
        Promise<RemotingCommand> reply = Promise.promise();
        long timerId = vertx.setTimer(answerTimeoutMs, id -> {
            Pending expired = pending.remove(nonce);
            if (expired != null) {
                expired.reply().tryComplete(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                    "gRPC client " + session.clientId() + " did not answer within " + answerTimeoutMs + " ms"));
            }
        });
        pending.put(nonce, new Pending(reply, request, timerId, isVerify));
        TelemetryCommand.Builder command = TelemetryCommand.newBuilder();
        if (isVerify) {
            StoredMessage message = StoredMessage.decode(ByteBuffer.wrap(request.body().getBytes()));
            command.setVerifyMessageCommand(VerifyMessageCommand.newBuilder().setNonce(nonce)
                .setMessage(MessageOut.of(message, null, message.reconsumeTimes(), 0)));
        } else {
            command.setPrintThreadStackTraceCommand(PrintThreadStackTraceCommand.newBuilder().setNonce(nonce));
        }
        session.telemetry().write(command.build());
        return reply.future();
    }

    /** The client's answer to the question {@code nonce} (ThreadStackTrace or VerifyMessageResult). */
    void answered(String nonce, Status status, String threadStackTrace) {
        Pending question = pending.remove(nonce);
        if (question == null) {
            return;   // answered too late, or a nonce we never sent
        }
        vertx.cancelTimer(question.timerId());
        RemotingCommand request = question.request();
        if (question.isVerify()) {
            question.reply().tryComplete(RemotingCommand.success(request, json.encode(directResult(status))));
        } else if (status.getCode() == Code.OK) {
            question.reply().tryComplete(RemotingCommand.success(request, json.encode(runningInfo(
                threadStackTrace))));
        } else {
            question.reply().tryComplete(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "gRPC client answered " + status.getCode() + ": " + status.getMessage()));
        }
    }

    /** RocketMQ's ConsumerRunningInfo with only what a gRPC client reports. */
    private static Map<String, Object> runningInfo(String jstack) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("properties", Map.of());
        info.put("subscriptionSet", List.of());
        info.put("mqTable", Map.of());
        info.put("statusTable", Map.of());
        if (jstack != null) {
            info.put("jstack", jstack);
        }
        return info;
    }

    /** RocketMQ's ConsumeMessageDirectlyResult. */
    private static Map<String, Object> directResult(Status status) {
        String result = switch (status.getCode()) {
            case OK -> "CR_SUCCESS";
            case FAILED_TO_CONSUME_MESSAGE -> "CR_LATER";
            case MESSAGE_CORRUPTED -> "CR_RETURN_NULL";
            default -> "CR_THROW_EXCEPTION";
        };
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("order", false);
        body.put("autoCommit", true);
        body.put("consumeResult", result);
        body.put("remark", "from gRPC client");
        body.put("spentTimeMills", 0);
        return body;
    }
}
