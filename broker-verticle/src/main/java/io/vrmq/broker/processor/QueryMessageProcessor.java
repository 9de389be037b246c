package io.vrmq.broker.processor;

import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.format.RecordReader;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Message look-ups: QUERY_MESSAGE (12, by key, message id or tag through the index) and VIEW_MESSAGE_BY_ID (33, by
 * commit-log offset, which the client takes from an offset msgId). Both answer with stored records as they are, like
 * a pull, and read the store on the reader pool.
 */
public final class QueryMessageProcessor {
    /** Ext field set when {@code key} is a message id (UNIQ_KEY): RocketMQ's MixAll.UNIQUE_MSG_QUERY_FLAG. */
    static final String UNIQUE_KEY_QUERY = "_UNIQUE_KEY_QUERY";
    /** RocketMQ's defaultQueryMaxNum: how many hits an id query returns, whatever maxNum says. */
    static final int DEFAULT_QUERY_MAX_NUM = 32;
    /** RocketMQ's maxMsgsNumBatch: the cap on maxNum for a key query. */
    static final int MAX_QUERY_NUM = 64;
    /** indexType of a tag query; the index holds tags under "T#" + tag. */
    private static final String TAG_INDEX_TYPE = "T";
    private static final String TAG_KEY_PREFIX = "T#";

    private final BrokerContext broker;

    public QueryMessageProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.QUERY_MESSAGE, this::queryMessage);
        table.register(RequestCode.VIEW_MESSAGE_BY_ID, this::viewMessageById);
    }

    private Future<RemotingCommand> queryMessage(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        String topic = header.requiredString("topic");
        String key = header.requiredString("key");
        int maxNum = header.requiredInt("maxNum");
        long beginTimestamp = header.requiredLong("beginTimestamp");
        long endTimestamp = header.requiredLong("endTimestamp");
        boolean isUniqueKey = Boolean.parseBoolean(header.optionalString(UNIQUE_KEY_QUERY));
        int maxCount = isUniqueKey ? DEFAULT_QUERY_MAX_NUM : Math.max(0, Math.min(maxNum, MAX_QUERY_NUM));
        String indexKey = !isUniqueKey && TAG_INDEX_TYPE.equals(header.optionalString("indexType"))
            ? TAG_KEY_PREFIX + key : key;
        return broker.store().read(() -> lookUp(topic, indexKey, maxCount, beginTimestamp, endTimestamp))
            .map(result -> queryAnswer(request, result));
    }

    /**
     * Runs on a reader thread. The response header names how far the index had got: we report the dispatched
     * commit-log offset and the newest store time among the hits (0 without hits); the client only compares these
     * across brokers.
     */
    private QueryResult lookUp(String topic, String key, int maxCount, long beginTimestamp, long endTimestamp) {
        List<FoundMessage> found = broker.store().store().queryMessage(topic, key, maxCount, beginTimestamp,
            endTimestamp);
        long newestStoreTimestamp = 0;
        for (FoundMessage message : found) {
            newestStoreTimestamp = Math.max(newestStoreTimestamp, RecordReader.storeTimestamp(message.record(), 0));
        }
        return new QueryResult(found.stream().map(FoundMessage::record).toList(), newestStoreTimestamp,
            broker.store().store().stats().dispatchedOffset());
    }

    private static RemotingCommand queryAnswer(RemotingCommand request, QueryResult result) {
        Map<String, String> header = Map.of(
            "indexLastUpdateTimestamp", Long.toString(result.indexLastUpdateTimestamp()),
            "indexLastUpdatePhyoffset", Long.toString(result.indexLastUpdatePhyoffset()));
        if (result.records().isEmpty()) {
            return RemotingCommand.response(request, ResponseCode.QUERY_NOT_FOUND,
                "can not find message, maybe time range not correct", header, null);
        }
        return RemotingCommand.success(request, header, storedRecords(result.records()));
    }

    private Future<RemotingCommand> viewMessageById(RemotingConnection connection, RemotingCommand request) {
        long offset = request.header().requiredLong("offset");
        return broker.store().read(() -> Optional.ofNullable(broker.store().store()
                .lookMessageByOffset(offset)))
            .map(record -> record.isPresent() ? RemotingCommand.success(request, storedRecords(List.of(record.get())))
                : RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "can not find message by the offset, " + offset));
    }

    private record QueryResult(List<ByteBuffer> records, long indexLastUpdateTimestamp,
                               long indexLastUpdatePhyoffset) {
    }

    /** The records as stored, wrapped without copying. */
    private static Buffer storedRecords(List<ByteBuffer> records) {
        return BufferInternal.buffer(Unpooled.wrappedBuffer(records.toArray(ByteBuffer[]::new)));
    }
}
