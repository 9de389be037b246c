package io.vrmq.broker.processor;

import io.netty.buffer.ByteBuf;
import io.vertx.core.Future;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ConsumerGroupInfo;
import io.vrmq.broker.filter.FilterParseException;
import io.vrmq.broker.filter.SubscriptionFilters;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.broker.longpoll.HeldPull;
import io.vrmq.broker.longpoll.PullHoldService;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.TagFilter;

import java.util.Map;

/**
 * PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361): checks the group, topic and subscription, reads from the store on
 * a reader thread with the subscription's filter (tag hashes, or an SQL92 selector on each record's properties, see
 * {@link SubscriptionFilters}), and answers with the stored records as they are (the client decodes RocketMQ's
 * record format).
 * A pull that finds nothing and may suspend is held by the {@link PullHoldService} until a message arrives in its
 * queue or its suspend timeout passes. On a slave, reads follow {@code slaveReadEnable} (see
 * {@link #suggestedBrokerId}); a slave never takes the offset a pull commits (its master's offsets are copied).
 * <p>
 * Threads: runs on the event loop of the pull's connection, one of {@code serverSelectorThreads}; what it touches is
 * thread-safe ({@link BrokerContext}), and a pull to hold goes to the hold service's context
 * ({@link PullHoldService#holdOrAnswer}). A woken pull is read again either on a reader thread from the hold
 * service's context, or on the store's dispatcher thread ({@code readHeldPullsOnDispatcher}); its answer is made on
 * the event loop that held it. The records found are the answer's body as mapped slices, or copied into one buffer
 * on the thread that read them, which the answer owns until its socket wrote it ({@link PulledRecords};
 * HotPathConfig's copyPulledRecords, bounded by its maxCopiedPullBytes: {@link PulledRecordCopies}).
 */
public final class PullMessageProcessor {
    private static final long MASTER_ID = 0;
    private final BrokerContext broker;
    private final PullHoldService holds;
    private final boolean holdsCaughtUpPullsAtOnce;
    private final PulledRecordCopies copies;

    /**
     * @param holdsCaughtUpPullsAtOnce HotPathConfig's holdCaughtUpPullsAtOnce (see {@link #isCaughtUp})
     * @param maxCopiedPullBytes       0 when HotPathConfig's copyPulledRecords is off, else its maxCopiedPullBytes
     *                                 (see {@link PulledRecordCopies})
     */
    public PullMessageProcessor(BrokerContext broker, PullHoldService holds, boolean holdsCaughtUpPullsAtOnce,
                                long maxCopiedPullBytes) {
        this.broker = broker;
        this.holds = holds;
        this.holdsCaughtUpPullsAtOnce = holdsCaughtUpPullsAtOnce;
        this.copies = new PulledRecordCopies(maxCopiedPullBytes);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(this::pull, RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE);
    }

    private Future<RemotingCommand> pull(RemotingConnection connection, RemotingCommand request) {
        PullRequest pull = PullRequest.decode(request);
        if (broker.replication().isSlave() && !broker.config().ha().slaveReadEnable()) {
            // RocketMQ 5's answer on a slave that may not serve reads (its rejectRequest): the client backs off.
            throw new RemotingCommandException(ResponseCode.SYSTEM_BUSY,
                "[REJECTREQUEST]system busy, start flow control for a while");
        }
        TagFilter filter = filterFor(pull);
        if (pull.hasCommitOffset() && broker.role().current().isMaster()) {
            broker.offsets().commit(pull.consumerGroup(), pull.topic(), pull.queueId(), pull.commitOffset());
        }
        Promise<RemotingCommand> reply = Promise.promise();
        HeldPull held = pull.isSuspend() && isCaughtUp(pull) ? heldPull(request, pull, filter, reply) : null;
        if (held != null) {
            // What a read would find (OFFSET_OVERFLOW_ONE: PULL_NOT_FOUND, held); if it cannot be held, read after all.
            holds.holdOrAnswer(held, () -> readAndAnswer(request, pull, filter, false, reply));
        } else {
            readAndAnswer(request, pull, filter, pull.isSuspend(), reply);
        }
        return reply.future();
    }

    /**
     * The pull asks for its queue's max offset (in memory, no file access): the consumer has read everything, as
     * every pull after a live answer does, so a read would find nothing and the pull would be held. Holding it here
     * saves the trip to a reader thread and back (two thread hand-offs per delivered message when consumers keep up);
     * a message dispatched meanwhile still wakes it (the hold re-checks the max offset). Not on a slave, whose empty
     * answers may send the consumer back to its master.
     */
    private boolean isCaughtUp(PullRequest pull) {
        if (!holdsCaughtUpPullsAtOnce || broker.replication().isSlave()) {
            return false;
        }
        long maxOffset = broker.store().store().getMaxOffsetInQueue(pull.topic(), pull.queueId());
        return maxOffset > 0 && pull.queueOffset() == maxOffset;
    }

    private void readAndAnswer(RemotingCommand request, PullRequest pull, TagFilter filter, boolean maySuspend,
                               Promise<RemotingCommand> reply) {
        broker.store().read(() -> read(pull, filter))
            .onFailure(reply::fail)
            .onSuccess(read -> answerRead(request, pull, filter, maySuspend, reply, read));
    }

    /**
     * A woken held pull on the store's dispatcher thread: reads right there (the messages were just dispatched, so
     * in the page cache) and hands the result to {@code context}, the pull's event loop, to answer.
     */
    private void readHereAndAnswer(RemotingCommand request, PullRequest pull, TagFilter filter,
                                   Promise<RemotingCommand> reply, Context context) {
        PullRead read;
        try {
            read = read(pull, filter);
        } catch (RuntimeException e) {
            context.runOnContext(ignored -> reply.fail(e));
            return;
        }
        context.runOnContext(ignored -> answerRead(request, pull, filter, false, reply, read));
    }

    /** On a reader thread or the dispatcher (file access allowed): the read, and its records copied if so set. */
    private PullRead read(PullRequest pull, TagFilter filter) {
        GetMessageResult result = broker.store().store().getMessages(pull.topic(), pull.queueId(),
            pull.queueOffset(), broker.config().pullTransfer().messages(pull.maxMsgNums()),
            broker.config().pullTransfer().bytes(pull.maxMsgBytes()), filter);
        return new PullRead(result, copies.copyOrNull(result));
    }

    /** On the pull's event loop: answers what the read found, or holds the pull when it found nothing. */
    private void answerRead(RemotingCommand request, PullRequest pull, TagFilter filter, boolean maySuspend,
                            Promise<RemotingCommand> reply, PullRead read) {
        try {
            answerOrHold(request, pull, filter, maySuspend, reply, read);
        } catch (RuntimeException e) {
            read.release();   // nothing took the copied records
            reply.tryFail(e);
        }
    }

    private void answerOrHold(RemotingCommand request, PullRequest pull, TagFilter filter, boolean maySuspend,
                              Promise<RemotingCommand> reply, PullRead read) {
        GetMessageResult result = read.result();
        int code = responseCode(result, pull.queueOffset());
        long suggestedBrokerId = suggestedBrokerId(pull, result);
        boolean isToMaster = broker.replication().isSlave() && suggestedBrokerId == MASTER_ID;
        if (isToMaster && code != ResponseCode.SUCCESS) {
            // RocketMQ's slave: nothing here while the master lives, so send the consumer back there now.
            code = ResponseCode.PULL_RETRY_IMMEDIATELY;
        }
        HeldPull held = code == ResponseCode.PULL_NOT_FOUND && maySuspend
            ? heldPull(request, pull, filter, reply) : null;
        int answerCode = code;
        Runnable answerNow = () -> answerNow(request, pull, read, answerCode, suggestedBrokerId, reply);
        if (held != null) {
            holds.holdOrAnswer(held, answerNow);   // the hold service may live on another event loop
        } else {
            answerNow.run();
        }
    }

    private void answerNow(RemotingCommand request, PullRequest pull, PullRead read, int code,
                           long suggestedBrokerId, Promise<RemotingCommand> reply) {
        GetMessageResult result = read.result();
        if (code == ResponseCode.SUCCESS) {
            broker.metrics().messagesPulled(pull.topic(), pull.consumerGroup(), result.messages().size(),
                result.totalBytes());
        }
        reply.complete(answer(request, read, code, suggestedBrokerId));
    }

    /**
     * Which broker of the group the consumer should pull from next (RocketMQ's rules): with slaveReadEnable, a master
     * sends a consumer reading far behind (outside the page cache) to the group's whichBrokerWhenConsumeSlowly; a
     * slave sends consumers back to a live master unless they read far behind; a slave whose master is gone keeps
     * them. Without slaveReadEnable every consumer belongs on the master.
     */
    private long suggestedBrokerId(PullRequest pull, GetMessageResult result) {
        if (!broker.config().ha().slaveReadEnable()) {
            return MASTER_ID;
        }
        SubscriptionGroupConfig group = broker.groups().get(pull.consumerGroup());
        boolean isSlow = result.suggestPullingFromSlave();
        if (broker.replication().isSlave()) {
            if (!broker.replication().isMasterAlive()) {
                return broker.role().current().brokerId();
            }
            return isSlow && group != null ? group.whichBrokerWhenConsumeSlowly() : MASTER_ID;
        }
        if (group == null) {
            return MASTER_ID;
        }
        return isSlow ? group.whichBrokerWhenConsumeSlowly() : group.brokerId();
    }

    /** The pull to hold until a message arrives or its wait ends, or null when it may not wait. */
    private HeldPull heldPull(RemotingCommand request, PullRequest pull, TagFilter filter,
                              Promise<RemotingCommand> reply) {
        long waitMs = broker.config().longPollingEnable() ? pull.suspendTimeoutMillis()
            : broker.config().shortPollingTimeMs();
        if (waitMs <= 0) {
            return null;
        }
        Context context = Vertx.currentContext();   // the pull's event loop, where its answer is made
        return new HeldPull(pull.topic(), pull.queueId(), pull.queueOffset(), filter,
            System.currentTimeMillis() + waitMs, () -> readAndAnswer(request, pull, filter, false, reply),
            () -> readHereAndAnswer(request, pull, filter, reply, context));
    }

    private TagFilter filterFor(PullRequest pull) {
        SubscriptionGroupConfig group = broker.groups().findOrCreate(pull.consumerGroup());
        if (group == null) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group ["
                + pull.consumerGroup() + "] does not exist");
        }
        if (!group.consumeEnable()) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "subscription group no permission, "
                + pull.consumerGroup());
        }
        TopicConfig topic = broker.topics().get(pull.topic());
        if (topic == null) {
            throw new RemotingCommandException(ResponseCode.TOPIC_NOT_EXIST, "topic[" + pull.topic()
                + "] not exist, apply first please!");
        }
        if (!Permission.isReadable(topic.perm()) || !Permission.isReadable(broker.config().brokerPermission())) {
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, "the topic[" + pull.topic()
                + "] pulling message is forbidden");
        }
        if (pull.queueId() < 0 || pull.queueId() >= topic.readQueueNums()) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "queueId[" + pull.queueId()
                + "] is illegal, topic:[" + pull.topic() + "] topicConfig.readQueueNums:[" + topic.readQueueNums()
                + "] consumer:[" + pull.consumerGroup() + "]");
        }
        return storeFilter(pull);
    }

    /**
     * The filter of the pull's subscription, as RocketMQ resolves it: the one the request carries (an expression that
     * does not compile: SUBSCRIPTION_PARSE_FAILED), else the heartbeat's (one that does not compile:
     * FILTER_DATA_NOT_EXIST); then SQL92 needs enablePropertyFilter.
     */
    private TagFilter storeFilter(PullRequest pull) {
        SubscriptionFilters filters = broker.features().filters();
        TagFilter filter;
        String expressionType;
        if (pull.hasSubscription()) {
            expressionType = pull.expressionType();
            try {
                filter = filters.storeFilter(pull.topic(), expressionType, pull.subscription());
            } catch (FilterParseException e) {
                throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_PARSE_FAILED,
                    "parse the consumer's subscription failed: " + e.getMessage());
            }
        } else {
            SubscriptionData subscription = heartbeatSubscription(pull);
            expressionType = subscription.expressionType();
            try {
                filter = filters.storeFilter(subscription);
            } catch (FilterParseException e) {
                throw new RemotingCommandException(ResponseCode.FILTER_DATA_NOT_EXIST,
                    "The broker's consumer filter data is not exist!Your expression may be wrong! " + e.getMessage());
            }
        }
        filters.requireSupported(expressionType);
        return filter;
    }

    private SubscriptionData heartbeatSubscription(PullRequest pull) {
        ConsumerGroupInfo group = broker.clients().consumerGroup(pull.consumerGroup());
        if (group == null) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_NOT_EXIST,
                "the consumer's group info not exist");
        }
        SubscriptionData subscription = group.subscription(pull.topic());
        if (subscription == null) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_NOT_EXIST,
                "the consumer's subscription not exist");
        }
        if (subscription.subVersion() < pull.subVersion()) {
            throw new RemotingCommandException(ResponseCode.SUBSCRIPTION_NOT_LATEST,
                "the consumer's subscription not latest");
        }
        return subscription;
    }

    /** RocketMQ's mapping of a read's status to the pull response code. */
    static int responseCode(GetMessageResult result, long requestedOffset) {
        return switch (result.status()) {
            case FOUND -> ResponseCode.SUCCESS;
            case NO_MATCHED_MESSAGE -> ResponseCode.PULL_RETRY_IMMEDIATELY;
            case NO_MESSAGE_IN_QUEUE, NO_MATCHED_LOGIC_QUEUE -> requestedOffset != 0 ? ResponseCode.PULL_OFFSET_MOVED
                : ResponseCode.PULL_NOT_FOUND;
            case OFFSET_FOUND_NULL, OFFSET_OVERFLOW_ONE -> ResponseCode.PULL_NOT_FOUND;
            case OFFSET_OVERFLOW_BADLY, OFFSET_TOO_SMALL -> ResponseCode.PULL_OFFSET_MOVED;
        };
    }

    /** The answer; the copied records, if any, pass to it (or are released when it carries no records). */
    private static RemotingCommand answer(RemotingCommand request, PullRead read, int code, long suggestedBrokerId) {
        GetMessageResult result = read.result();
        // An immutable map of four: one array, not a hash table and its nodes per answer (the header is written sorted).
        Map<String, String> header = Map.of("suggestWhichBrokerId", Long.toString(suggestedBrokerId),
            "nextBeginOffset", Long.toString(result.nextBeginOffset()), "minOffset", Long.toString(result.minOffset()),
            "maxOffset", Long.toString(result.maxOffset()));
        if (code != ResponseCode.SUCCESS) {
            read.release();
            return RemotingCommand.response(request, code, result.status().name(), header, null);
        }
        ByteBuf copied = read.takeCopiedRecords();
        if (copied != null) {
            return RemotingCommand.responseWithOwnedBody(request, code, null, header, copied);
        }
        Buffer body = BufferInternal.buffer(PulledRecords.wrap(result));
        return RemotingCommand.response(request, code, null, header, body);
    }

    /**
     * What a read found, and its records copied into one buffer (null when none were found or copying is off): taken
     * by the answer, or released. Used by one thread at a time (made on the reader, then handed to the event loop).
     */
    private static final class PullRead {
        private final GetMessageResult result;
        private ByteBuf copiedRecords;

        PullRead(GetMessageResult result, ByteBuf copiedRecords) {
            this.result = result;
            this.copiedRecords = copiedRecords;
        }

        GetMessageResult result() {
            return result;
        }

        /** The copied records, whose owner the caller becomes; null when none or already taken. */
        ByteBuf takeCopiedRecords() {
            ByteBuf taken = copiedRecords;
            copiedRecords = null;
            return taken;
        }

        /** Releases the copied records unless the answer took them. */
        void release() {
            ByteBuf copied = takeCopiedRecords();
            if (copied != null) {
                copied.release();
            }
        }
    }
}
