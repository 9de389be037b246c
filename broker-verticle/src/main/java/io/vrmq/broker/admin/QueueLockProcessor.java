package io.vrmq.broker.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;

import java.util.Map;
import java.util.Set;

/**
 * LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42): the orderly consumer's queue locks, kept in a {@link QueueLockTable}.
 * This broker has no replicas, so {@code onlyThisBroker} changes nothing. Runs on the event loop (the table never
 * blocks).
 */
public final class QueueLockProcessor {
    private final BrokerContext broker;
    private final QueueLockTable locks;

    public QueueLockProcessor(BrokerContext broker, QueueLockTable locks) {
        this.broker = broker;
        this.locks = locks;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.LOCK_BATCH_MQ, this::lock);
        table.register(RequestCode.UNLOCK_BATCH_MQ, this::unlock);
    }

    private Future<RemotingCommand> lock(RemotingConnection connection, RemotingCommand request) {
        LockBatchRequest body = decode(request);
        Set<MessageQueue> locked = locks.tryLockBatch(body.consumerGroup(), body.mqSet(), body.clientId());
        return Future.succeededFuture(RemotingCommand.success(request,
            broker.json().encode(Map.of("lockOKMQSet", locked))));
    }

    private Future<RemotingCommand> unlock(RemotingConnection connection, RemotingCommand request) {
        LockBatchRequest body = decode(request);
        locks.unlockBatch(body.consumerGroup(), body.mqSet(), body.clientId());
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    private LockBatchRequest decode(RemotingCommand request) {
        LockBatchRequest body = broker.json().decode(request.body(), LockBatchRequest.class);
        if (body.consumerGroup() == null || body.clientId() == null) {
            throw new RemotingCommandException("lock body needs consumerGroup and clientId");
        }
        return body;
    }

    /** LockBatchRequestBody and UnlockBatchRequestBody share this shape. */
    record LockBatchRequest(@JsonProperty("consumerGroup") String consumerGroup,
                            @JsonProperty("clientId") String clientId,
                            @JsonProperty("onlyThisBroker") boolean onlyThisBroker,
                            @JsonProperty("mqSet") Set<MessageQueue> mqSet) {
        LockBatchRequest {
            mqSet = mqSet == null ? Set.of() : mqSet;
        }
    }
}
