package io.vrmq.broker.recall;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.timer.TimerRouting;
import io.vrmq.broker.trace.TraceStamp;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * RECALL_MESSAGE (370), RocketMQ 5.5.0's RecallMessageProcessor: cancels a timer message that is not yet due, named
 * by the recall handle its send answered ({@link RecallHandle}). Like RocketMQ it stores a delete record to the timer
 * topic, in the slot of the cancelled message ({@link io.vrmq.broker.timer.TimerDeleteMark}); the timer service then
 * drops that message instead of delivering it. Whether the message exists is not checked (a well-formed handle for
 * nothing held is a SUCCESS that cancels nothing), again as in RocketMQ.
 * <p>
 * Refusals, in RocketMQ's order, store nothing: recallMessageEnable off → NO_PERMISSION; a slave →
 * SLAVE_NOT_AVAILABLE; fenced (controller mode, ours), or brokerPermission without write unless
 * allowRecallWhenBrokerNotWriteable → SERVICE_NOT_AVAILABLE; unknown topic → TOPIC_NOT_EXIST; a handle that does not
 * decode, names another topic or another broker, or whose time is past (already delivered) or beyond
 * timerMaxDelaySec → ILLEGAL_OPERATION; timerMaxHeldDeleteKeys recalls held (ours, {@link
 * io.vrmq.broker.timer.TimerFlowControl}) → SYSTEM_BUSY; a SYNC_MASTER without enough in-sync replicas (controller
 * mode) or a store refusal → SYSTEM_ERROR. SUCCESS carries msgId = the handle's message id. Every answer carries
 * MSG_REGION. Runs on the event loop; the append on the store's writer; a SYNC_MASTER's wait for its slave hops to
 * the HA side's context.
 */
public final class RecallMessageProcessor {
    static final String RECALL_TAG = "_RECALL_TAG_";
    private static final String BORN_TIMESTAMP = "BORN_TIMESTAMP";
    private static final String TRACE_CONTEXT = "TRACE_CONTEXT";
    private static final byte[] BODY = "0".getBytes(StandardCharsets.UTF_8);
    private static final String UNAVAILABLE = "recall failed, broker service not available";
    private static final String EXECUTE_ERROR = "recall failed, execute error";

    private final BrokerContext broker;
    private final RecallConfig config;
    private final TimerRouting timer;
    private final LongSupplier clockMs;

    public RecallMessageProcessor(BrokerContext broker, RecallConfig config, TimerRouting timer,
                                  LongSupplier clockMs) {
        this.broker = broker;
        this.config = config;
        this.timer = timer;
        this.clockMs = clockMs;
    }

    /** The broker's processor: RocketMQ's timerMaxDelaySec, the timer's flow control, the system clock. */
    public static RecallMessageProcessor of(BrokerContext broker, RecallConfig config) {
        return new RecallMessageProcessor(broker, config, TimerRouting.systemClock(broker.features().timerFlow()),
            System::currentTimeMillis);
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.RECALL_MESSAGE, this::recall);
    }

    private Future<RemotingCommand> recall(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String topic = header.requiredString("topic");
        String handleText = header.requiredString("recallHandle");
        String producerGroup = header.optionalString("producerGroup");
        RemotingCommand refused = refusal(request, topic);
        if (refused != null) {
            return Future.succeededFuture(refused);
        }
        RecallHandle handle;
        try {
            handle = RecallHandle.decode(handleText);
        } catch (IllegalArgumentException e) {
            return illegal(request, e.getMessage());
        }
        if (!topic.equals(handle.topic())) {
            return illegal(request, "recall failed, topic not match");
        }
        if (!broker.config().brokerName().equals(handle.brokerName())) {
            return illegal(request, UNAVAILABLE);
        }
        long timeLeftMs = handle.timestampMs() - clockMs.getAsLong();
        if (timeLeftMs <= 0 || timeLeftMs >= TimerRouting.TIMER_MAX_DELAY_SEC * 1_000) {
            return illegal(request, "recall failed, timestamp invalid");
        }
        try {
            broker.features().timerFlow().requireRecallAdmitted();
        } catch (RemotingCommandException busy) {
            return Future.succeededFuture(answer(request, busy.responseCode(), busy.getMessage(), null));
        }
        if (broker.role().current().isSyncMaster() && !broker.replication().hasEnoughInSyncReplicas()) {
            // RocketMQ's IN_SYNC_REPLICAS_NOT_ENOUGH, refused before storing; a recall answers it as any failed put
            return Future.succeededFuture(answer(request, ResponseCode.SYSTEM_ERROR, EXECUTE_ERROR, null));
        }
        MessageToStore deleteRecord;
        try {
            deleteRecord = deleteRecord(handle, producerGroup, connection.remoteInetSocketAddress());
        } catch (RemotingCommandException refusedByTimer) {
            return Future.succeededFuture(answer(request, ResponseCode.SYSTEM_ERROR, EXECUTE_ERROR, null));
        }
        return broker.store().append(deleteRecord).compose(result -> stored(request, result, handle));
    }

    /** The refusal of any recall by this broker or to this topic, or null; codes and remarks are RocketMQ's. */
    private RemotingCommand refusal(RemotingCommand request, String topic) {
        if (!config.recallMessageEnable()) {
            return answer(request, ResponseCode.NO_PERMISSION, "recall failed, operation is forbidden", null);
        }
        if (broker.replication().isSlave()) {
            return answer(request, ResponseCode.SLAVE_NOT_AVAILABLE, UNAVAILABLE, null);
        }
        boolean isWritable = Permission.isWritable(broker.config().brokerPermission());
        if (broker.role().current().isFenced() || !isWritable && !config.allowRecallWhenBrokerNotWriteable()) {
            return answer(request, ResponseCode.SERVICE_NOT_AVAILABLE, UNAVAILABLE, null);
        }
        if (broker.topics().get(topic) == null) {
            return answer(request, ResponseCode.TOPIC_NOT_EXIST, "recall failed, the topic[" + topic + "] not exist",
                null);
        }
        return null;
    }

    /**
     * The delete record as RocketMQ builds it: topic = the handle's (the timer routing then moves it to the timer
     * topic with REAL_TOPIC), queue 0, body "0", tag {@value #RECALL_TAG}, TIMER_DEL_UNIQKEY and UNIQ_KEY = the
     * message id, TIMER_DELIVER_MS = the handle's timestamp (so the same slot), BORN_TIMESTAMP, an empty
     * TRACE_CONTEXT and the producer group when the request names one.
     *
     * @throws RemotingCommandException when the timer refuses it (time already past, flow control)
     */
    private MessageToStore deleteRecord(RecallHandle handle, String producerGroup, InetSocketAddress bornHost) {
        long nowMs = clockMs.getAsLong();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageConst.TAGS, RECALL_TAG);
        properties.put(MessageConst.TIMER_DEL_UNIQKEY, handle.messageId());
        properties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, handle.messageId());
        properties.put(MessageConst.TIMER_DELIVER_MS, handle.timestampText());
        properties.put(BORN_TIMESTAMP, Long.toString(nowMs));
        properties.put(TRACE_CONTEXT, "");
        if (producerGroup != null) {
            properties.put(MessageConst.PRODUCER_GROUP, producerGroup);
        }
        if (!timer.holdUntilDue(handle.topic(), 0, properties)) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "deliver time already past");
        }
        broker.topics().putIfAbsent(TopicConfig.of(TimerRouting.TIMER_TOPIC, 1, Permission.READ_WRITE));
        return new MessageToStore(TimerRouting.TIMER_TOPIC, TimerRouting.TIMER_QUEUE_ID, 0, BODY,
            MessageProperties.format(properties), 0, nowMs, bornHost, 0, 0);
    }

    /**
     * SUCCESS once stored, waiting as a send does for the flush and, on a SYNC_MASTER, for a slave; a flush timeout,
     * a slave timeout or no slave is still SUCCESS (RocketMQ's FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT and
     * SLAVE_NOT_AVAILABLE answers of a recall).
     */
    private Future<RemotingCommand> stored(RemotingCommand request, AppendResult result, RecallHandle handle) {
        if (!result.isOk()) {
            return Future.succeededFuture(answer(request, ResponseCode.SYSTEM_ERROR, EXECUTE_ERROR, null));
        }
        return broker.store().durability(result)
            .transform(flushed -> slaveWait(result))
            .map(replicated -> answer(request, ResponseCode.SUCCESS, null, handle.messageId()))
            .otherwise(error -> answer(request, ResponseCode.SUCCESS, null, handle.messageId()));
    }

    /** On a SYNC_MASTER: until a slave has the record (or the wait ends otherwise); at once elsewhere. */
    private Future<Void> slaveWait(AppendResult result) {
        if (!broker.role().current().isSyncMaster()) {
            return Future.succeededFuture();
        }
        return broker.replication().awaitSlave(result.commitLogOffset() + result.sizeBytes()).mapEmpty();
    }

    private static Future<RemotingCommand> illegal(RemotingCommand request, String remark) {
        return Future.succeededFuture(answer(request, ResponseCode.ILLEGAL_OPERATION, remark, null));
    }

    private static RemotingCommand answer(RemotingCommand request, int code, String remark, String msgId) {
        Map<String, String> fields = new HashMap<>();
        fields.put(MessageConst.MSG_REGION, TraceStamp.DEFAULT_REGION);
        if (msgId != null) {
            fields.put("msgId", msgId);
        }
        return RemotingCommand.response(request, code, remark, fields, (Buffer) null);
    }
}
