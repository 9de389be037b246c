package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.grpc.proto.RecoverOrphanedTransactionCommand;
import io.vrmq.grpc.proto.TelemetryCommand;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

/**
 * The broker's CHECK_TRANSACTION_STATE (39) for a gRPC producer, which arrives on the loopback connection (the
 * producer group of a gRPC half message is its topic, registered by the endpoint's heartbeats), pushed to one
 * producer of the topic as a RecoverOrphanedTransactionCommand on its Telemetry stream. The producer runs its
 * checker and answers with EndTransaction (source SERVER_CHECK) naming the transaction_id given here, which points at
 * the copy this check stored. No producer of the topic with an open stream: nothing is sent, and the broker asks
 * again at its next check run. A oneway request: nothing is answered. Runs on the link's event loop.
 */
final class TransactionChecks implements RequestProcessor {
    private static final Logger log = LoggerFactory.getLogger(TransactionChecks.class);

    private final GrpcSessions sessions;

    TransactionChecks(GrpcSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public Future<RemotingCommand> process(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        if (!request.hasBody()) {
            log.warn("transaction check without the message: ignored");
            return Future.succeededFuture();
        }
        StoredMessage message = StoredMessage.decode(ByteBuffer.wrap(request.body().getBytes()));
        GrpcSessions.Session producer = sessions.producerOf(message.topic());
        if (producer == null) {
            log.debug("no gRPC producer of {} with an open stream to check transaction {}", message.topic(),
                header.optionalString("msgId"));
            return Future.succeededFuture();
        }
        TransactionId transactionId = new TransactionId(header.requiredLong("commitLogOffset"),
            header.requiredLong("tranStateTableOffset"));
        TelemetryCommand command = TelemetryCommand.newBuilder()
            .setRecoverOrphanedTransactionCommand(RecoverOrphanedTransactionCommand.newBuilder()
                .setMessage(MessageOut.of(message, null, message.reconsumeTimes(), 0))
                .setTransactionId(transactionId.format()))
            .build();
        producer.telemetry().write(command).onFailure(error -> log.debug("transaction check to {} not written: {}",
            producer.clientId(), error.toString()));
        return Future.succeededFuture();
    }
}
