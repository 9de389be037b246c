package io.vrmq.broker.transaction;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.processor.DeliveryRouting;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * END_TRANSACTION (37), RocketMQ 5.5.0's EndTransactionProcessor: a producer ends a transaction (oneway, after its
 * local transaction or when a check asked it). Commit: the half message, found by its CommitLog offset and checked
 * against the request (producer group, half queue offset, CommitLog offset), is stored to its real topic (see
 * {@link CommittedMessage}), then an op record marks it done. Rollback: only the op record. "Unknown" (0) changes
 * nothing: the check service will ask again. A slave refuses with SLAVE_NOT_AVAILABLE, as RocketMQ's does. An end that
 * is not answering a check and comes after the message's CHECK_IMMUNITY_TIME_IN_SECONDS is refused with
 * ILLEGAL_OPERATION: the broker checks that one itself.
 * <p>
 * The client sends this oneway, so the reply is for two-way callers (tests, tools) only. Validation runs on the
 * event loop, the look-up on a store reader thread, the appends on the writer thread.
 */
public final class EndTransactionProcessor {
    /** RocketMQ 5's ResponseCode.ILLEGAL_OPERATION. */
    static final int ILLEGAL_OPERATION = 604;
    private static final Logger log = LoggerFactory.getLogger(EndTransactionProcessor.class);

    private final BrokerContext broker;
    private final DeliveryRouting routing;
    private final OpRecords opRecords;
    private final LongSupplier clockMs;

    public EndTransactionProcessor(BrokerContext broker, DeliveryRouting routing, OpRecords opRecords,
                                   LongSupplier clockMs) {
        this.broker = broker;
        this.routing = routing;
        this.opRecords = opRecords;
        this.clockMs = clockMs;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.END_TRANSACTION, this::endTransaction);
    }

    private Future<RemotingCommand> endTransaction(RemotingConnection connection, RemotingCommand request) {
        EndTransactionRequest end = EndTransactionRequest.decode(request);
        if (broker.replication().isSlave()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SLAVE_NOT_AVAILABLE,
                "broker " + broker.config().brokerName() + " is a slave: end transactions at its master"));
        }
        if (!end.isCommit() && !end.isRollback()) {
            log.debug("producer {} at {} does not know the state of transaction {} yet (commitOrRollback {})",
                end.producerGroup(), connection.remoteAddress(), end.transactionId(), end.commitOrRollback());
            return Future.succeededFuture(RemotingCommand.success(request, null));
        }
        return broker.store().read(() -> halfMessageAt(end.commitLogOffset()))
            .compose(half -> {
                RemotingCommand refusal = refusal(request, end, half);
                if (refusal != null) {
                    return Future.succeededFuture(refusal);
                }
                return end.isCommit() ? commit(request, half) : rollback(request, half);
            });
    }

    /** Reader thread: the half message stored at {@code commitLogOffset}, or null when there is none there. */
    private StoredMessage halfMessageAt(long commitLogOffset) {
        ByteBuffer record = broker.store().store().lookMessageByOffset(commitLogOffset);
        if (record == null) {
            return null;
        }
        StoredMessage message = StoredMessage.decode(record);
        return TransactionNames.HALF_TOPIC.equals(message.topic()) ? message : null;
    }

    /** RocketMQ's checks and remarks, in its order; null when the end may proceed. */
    private RemotingCommand refusal(RemotingCommand request, EndTransactionRequest end, StoredMessage half) {
        if (half == null) {
            return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "Find prepared transaction message failed");
        }
        if (isPastImmunity(end, half)) {
            log.warn("transaction {} ended by its producer after its check immunity time: left to the check",
                end.transactionId());
            return RemotingCommand.failure(request, ILLEGAL_OPERATION, "the transaction of message " + end.msgId()
                + " is past its check immunity time: the broker will check it");
        }
        if (!end.producerGroup().equals(half.propertyMap().get(MessageConst.PRODUCER_GROUP))) {
            return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR, "The producer group wrong");
        }
        if (half.queueOffset() != end.tranStateTableOffset()) {
            return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "The transaction state table offset wrong");
        }
        if (half.commitLogOffset() != end.commitLogOffset()) {
            return RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR, "The commit log offset wrong");
        }
        return null;
    }

    private boolean isPastImmunity(EndTransactionRequest end, StoredMessage half) {
        String immunity = half.propertyMap().get(TransactionNames.CHECK_IMMUNITY_TIME_IN_SECONDS);
        if (end.isFromTransactionCheck() || immunity == null || immunity.isEmpty()) {
            return false;
        }
        return clockMs.getAsLong() - half.bornTimestamp() > broker.config().transaction().immunityMs(immunity);
    }

    private Future<RemotingCommand> commit(RemotingCommand request, StoredMessage half) {
        CommittedMessage committed = CommittedMessage.of(half);
        if (committed == null) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "the half message at commit log offset " + half.commitLogOffset() + " names no real topic/queue"));
        }
        DeliveryRouting.Destination destination = routing.route(committed.realTopic(), committed.realQueueId(),
            committed.properties(), half.reconsumeTimes(), -1, committed.sysFlag());
        MessageToStore message = new MessageToStore(destination.topic(), destination.queueId(), half.flag(),
            half.body(), MessageProperties.format(committed.properties()), committed.sysFlag(), half.bornTimestamp(),
            half.bornHost(), half.reconsumeTimes(), half.commitLogOffset());
        return broker.store().append(message).compose(stored -> {
            if (!stored.isOk()) {
                return Future.succeededFuture(refused(request, stored));
            }
            broker.metrics().messagesStored(committed.realTopic(), 1, half.body().length);
            return writeOp(half).map(isRecorded -> RemotingCommand.success(request, null));
        });
    }

    private Future<RemotingCommand> rollback(RemotingCommand request, StoredMessage half) {
        return writeOp(half).map(isRecorded -> isRecorded ? RemotingCommand.success(request, null)
            : RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR, "the rollback of the half message at "
                + "commit log offset " + half.commitLogOffset() + " was not recorded: the broker will check it"));
    }

    /**
     * Stores the op record; false when the store refused it. The transaction is then still open as far as the
     * check service knows, so it asks the producer again later: logged, not failed (the commit itself is stored).
     */
    private Future<Boolean> writeOp(StoredMessage half) {
        return broker.store().append(opRecords.resolving(half.queueId(), half.queueOffset())).map(result -> {
            if (!result.isOk()) {
                log.warn("op record for half message {} (queue offset {}) not stored: {} {}", half.offsetMsgId(),
                    half.queueOffset(), result.status(), result.remark());
            }
            return result.isOk();
        });
    }

    private static RemotingCommand refused(RemotingCommand request, AppendResult result) {
        int code = switch (result.status()) {
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED -> ResponseCode.MESSAGE_ILLEGAL;
            case SERVICE_NOT_AVAILABLE, DISK_FULL -> ResponseCode.SERVICE_NOT_AVAILABLE;
            case PUT_OK -> throw new IllegalStateException("PUT_OK is not a refusal");
        };
        return RemotingCommand.failure(request, code, result.status() + ": " + result.remark());
    }
}
