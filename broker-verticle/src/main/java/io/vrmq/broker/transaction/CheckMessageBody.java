package io.vrmq.broker.transaction;

import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.format.BodyCrc;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.RecordWriter;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The body of CHECK_TRANSACTION_STATE: the half message in stored-record form ({@link RecordLayout}), as RocketMQ's
 * AbstractTransactionalMessageCheckListener.sendCheckMessage encodes it with MessageDecoder.encode: the copy just
 * stored for this check (its queue offset, CommitLog offset, store time and host, its TRANSACTION_CHECK_TIMES), with
 * topic and queue id set back to REAL_TOPIC / REAL_QID, so the producer's checkLocalTransaction sees the message it
 * sent. The client decodes it with MessageDecoder.decode and does not check the body CRC. Pure.
 */
final class CheckMessageBody {
    private CheckMessageBody() {
    }

    static byte[] encode(MessageToStore copy, AppendResult stored, String realTopic, int realQueueId) {
        byte[] topic = realTopic.getBytes(StandardCharsets.UTF_8);
        byte[] properties = copy.properties().getBytes(StandardCharsets.UTF_8);
        HostAddress bornHost = HostAddress.of(copy.bornHost());
        HostAddress storeHost = stored.storeHost();
        int sysFlag = hostFlags(copy.sysFlag(), bornHost, storeHost);
        int recordBytes = RecordLayout.recordBytes(sysFlag, copy.bodyLength(), topic.length, properties.length);
        EncodedMessage message = new EncodedMessage(topic, realQueueId, copy.flag(), copy.body(), copy.bodyOffset(),
            copy.bodyLength(), BodyCrc.of(copy.body(), copy.bodyOffset(), copy.bodyLength()), properties, sysFlag, copy.bornTimestamp(), bornHost, copy.reconsumeTimes(),
            copy.preparedTransactionOffset(), recordBytes);
        ByteBuffer record = ByteBuffer.allocate(recordBytes);
        RecordWriter.write(record, 0, message, stored.queueOffset(), stored.commitLogOffset(),
            stored.storeTimestamp(), storeHost);
        return record.array();
    }

    /** The sysFlag's host IPv6 bits must match the host widths written, as the store sets them. */
    private static int hostFlags(int sysFlag, HostAddress bornHost, HostAddress storeHost) {
        int flags = sysFlag & ~(RecordLayout.SYS_FLAG_BORN_HOST_V6 | RecordLayout.SYS_FLAG_STORE_HOST_V6);
        if (bornHost.isIpv6()) {
            flags |= RecordLayout.SYS_FLAG_BORN_HOST_V6;
        }
        if (storeHost.isIpv6()) {
            flags |= RecordLayout.SYS_FLAG_STORE_HOST_V6;
        }
        return flags;
    }
}
