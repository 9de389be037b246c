package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Appends {@link ReviveRecord}s to the revive topic, one batch per call into one revive queue (the records of one
 * request land together, with consecutive queue offsets), and tells when they are durable: forced to disk under
 * SYNC_FLUSH and, on a SYNC_MASTER, held by a slave, as a send waits. The records are plain messages of the
 * CommitLog, so a slave has them as soon as it has the bytes. Call on the broker's context.
 */
final class ReviveLog {
    private final BrokerContext broker;
    private final String reviveTopic;
    private final ReviveRecordCodec codec;
    private final InetSocketAddress bornHost;

    ReviveLog(BrokerContext broker, String reviveTopic, ReviveRecordCodec codec) {
        this.broker = broker;
        this.reviveTopic = reviveTopic;
        this.codec = codec;
        String[] hostPort = broker.identity().brokerAddr().split(":");
        this.bornHost = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
    }

    String reviveTopic() {
        return reviveTopic;
    }

    /** Appends the records (in order) to revive queue {@code reviveQueueId}; completes once they are written. */
    Future<AppendResult> append(int reviveQueueId, List<? extends ReviveRecord> records) {
        List<MessageToStore> messages = new ArrayList<>(records.size());
        long now = System.currentTimeMillis();
        for (ReviveRecord record : records) {
            Map<String, String> properties = new LinkedHashMap<>();
            properties.put(MessageConst.TAGS, record.tag());
            properties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
                ReviveRecordCodec.uniqueKey(record, broker.config().brokerName()));
            messages.add(new MessageToStore(reviveTopic, reviveQueueId, 0, codec.encode(record),
                MessageProperties.format(properties), 0, now, bornHost, 0, 0));
        }
        return messages.size() == 1 ? broker.store().append(messages.get(0)) : broker.store().appendBatch(messages);
    }

    /**
     * Completes once a written append is durable (a flush timeout still counts: the bytes are in the CommitLog, as
     * RocketMQ counts FLUSH_DISK_TIMEOUT as stored for checkpoints and acks).
     */
    Future<Void> durable(AppendResult result) {
        return broker.store().durability(result).compose(flush -> {
            if (!broker.role().current().isSyncMaster()) {
                return Future.succeededFuture();
            }
            return broker.replication().awaitSlave(result.commitLogOffset() + result.sizeBytes()).mapEmpty();
        });
    }
}
