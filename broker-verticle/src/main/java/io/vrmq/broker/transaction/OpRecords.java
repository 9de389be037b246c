package io.vrmq.broker.transaction;

import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.store.MessageToStore;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Op records: what tells the check service, also after a restart, that a half message is resolved. RocketMQ's form
 * (TransactionalMessageBridge.makeOpMessageInner): topic {@link TransactionNames#OP_TOPIC}, the half message's queue
 * id, tag "d", body = half queue offsets as decimal text, each followed by "," (5.x batches several into one record;
 * we write one per resolution, at once, so none is lost to a crash between two batches). 4.x wrote the offset
 * without the comma; {@link #halfOffsets} reads both. Immutable; any thread.
 */
public final class OpRecords {
    private final InetSocketAddress storeHost;
    private final LongSupplier clockMs;

    /** {@code storeHost} is this broker's address, which RocketMQ writes as the born host of its op records. */
    public OpRecords(InetSocketAddress storeHost, LongSupplier clockMs) {
        this.storeHost = storeHost;
        this.clockMs = clockMs;
    }

    /** Op records of {@code broker}, born at its own address (brokerIP1:listenPort), now. */
    public static OpRecords of(BrokerContext broker) {
        String addr = broker.identity().brokerAddr();
        int colon = addr.lastIndexOf(':');
        return new OpRecords(new InetSocketAddress(addr.substring(0, colon),
            Integer.parseInt(addr.substring(colon + 1))), System::currentTimeMillis);
    }

    /** The op record saying the half message at {@code halfQueueOffset} of queue {@code halfQueueId} is done. */
    public MessageToStore resolving(int halfQueueId, long halfQueueOffset) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageConst.TAGS, TransactionNames.REMOVE_TAG);
        properties.put(MessageConst.WAIT_STORE_MSG_OK, "false");
        byte[] body = (halfQueueOffset + TransactionNames.OFFSET_SEPARATOR).getBytes(StandardCharsets.UTF_8);
        return new MessageToStore(TransactionNames.OP_TOPIC, halfQueueId, 0, body,
            MessageProperties.format(properties), TransactionSysFlag.NOT_TYPE, clockMs.getAsLong(), storeHost, 0, 0);
    }

    /**
     * The half queue offsets an op record names; empty when its tag is not "d" (RocketMQ logs and ignores those) or
     * its body holds no number. Tokens that are not numbers are skipped.
     */
    public static List<Long> halfOffsets(String tags, byte[] body) {
        List<Long> offsets = new ArrayList<>();
        if (!TransactionNames.REMOVE_TAG.equals(tags) || body == null) {
            return offsets;
        }
        for (String token : new String(body, StandardCharsets.UTF_8).split(TransactionNames.OFFSET_SEPARATOR)) {
            try {
                if (!token.isBlank()) {
                    offsets.add(Long.parseLong(token.trim()));
                }
            } catch (NumberFormatException e) {
                // RocketMQ reads an unreadable token as -1, which no half message has: the same as skipping it.
            }
        }
        return offsets;
    }
}
