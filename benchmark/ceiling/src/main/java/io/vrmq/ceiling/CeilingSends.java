package io.vrmq.ceiling;

import io.vertx.core.Future;
import io.vertx.core.net.SocketAddress;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.OffsetMessageId;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * SEND_MESSAGE (10) and SEND_MESSAGE_V2 (310): the record is built and kept in memory, and the answer carries what a
 * broker's does (offset message id, queue id and offset, region, trace switch). No flush, no replication, no index:
 * the cost left is the protocol's. Event loop only.
 */
final class CeilingSends {
    private static final String REGION = "DefaultRegion";

    private final MemoryQueues queues;
    private final HeldPulls heldPulls;
    private final CeilingVerticle.CeilingAddress self;
    private long physicalOffset;

    CeilingSends(MemoryQueues queues, HeldPulls heldPulls, CeilingVerticle.CeilingAddress self) {
        this.queues = queues;
        this.heldPulls = heldPulls;
        this.self = self;
    }

    void register(ProcessorTable.Builder table) {
        table.register(this::send, RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2);
    }

    private Future<RemotingCommand> send(RemotingConnection connection, RemotingCommand request) {
        HostAddress storeHost = self.storeHost();
        SentMessage sent = SentMessage.of(request, bornHost(connection));
        QueueKey key = new QueueKey(sent.topic(), sent.queueId());
        RecordRing ring = queues.queue(key);
        long recordOffset = physicalOffset;
        EncodedMessage message = StoredRecord.encode(sent, storeHost);
        long address = StoredRecord.write(queues.arena(), message, ring.maxOffset(), recordOffset,
            System.currentTimeMillis(), storeHost);
        physicalOffset += message.recordBytes();
        long queueOffset = ring.append(address, message.recordBytes());
        heldPulls.wake(key);
        Map<String, String> header = new HashMap<>();
        header.put("msgId", OffsetMessageId.of(storeHost.address(), storeHost.port(), recordOffset));
        header.put("queueId", Integer.toString(sent.queueId()));
        header.put("queueOffset", Long.toString(queueOffset));
        header.put(MessageConst.MSG_REGION, REGION);
        header.put(MessageConst.TRACE_SWITCH, "true");
        return Future.succeededFuture(RemotingCommand.success(request, header, null));
    }

    private static HostAddress bornHost(RemotingConnection connection) {
        SocketAddress address = connection.remoteSocketAddress();
        String host = address.hostAddress() == null ? "127.0.0.1" : address.hostAddress();
        return HostAddress.of(new InetSocketAddress(host, Math.max(address.port(), 0)));
    }
}
