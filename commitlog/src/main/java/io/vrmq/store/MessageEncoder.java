package io.vrmq.store;

import io.vrmq.store.format.BodyCrc;
import io.vrmq.store.format.EncodedMessage;
import io.vrmq.store.format.HostAddress;
import io.vrmq.store.format.RecordLayout;
import io.vrmq.store.format.TopicNames;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Checks a {@link MessageToStore} against the limits and turns it into an {@link EncodedMessage}, before any byte
 * is written (so a refused message leaves nothing behind). Stateless apart from configuration; any thread.
 */
final class MessageEncoder {
    private final int maxMessageSize;
    private final int segmentBytes;
    private final HostAddress storeHost;

    MessageEncoder(int maxMessageSize, int segmentBytes, HostAddress storeHost) {
        this.maxMessageSize = maxMessageSize;
        this.segmentBytes = segmentBytes;
        this.storeHost = storeHost;
    }

    EncodedMessage encode(MessageToStore message) throws RejectedMessageException {
        if (!TopicNames.isValid(message.topic())) {
            throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL, "topic '" + message.topic()
                    + "' is not 1.." + TopicNames.MAX_TOPIC_LENGTH + " characters of [%|a-zA-Z0-9_-]");
        }
        if (message.queueId() < 0) {
            throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL, "queueId " + message.queueId() + " < 0");
        }
        byte[] body = message.body() == null ? new byte[0] : message.body();
        int bodyOffset = message.bodyOffset();
        int bodyLength = message.bodyLength();
        if (bodyLength > maxMessageSize) {
            throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL,
                    "body " + bodyLength + " bytes > maxMessageSize " + maxMessageSize);
        }
        byte[] properties = message.properties() == null ? new byte[0]
                : message.properties().getBytes(StandardCharsets.UTF_8);
        if (properties.length > RecordLayout.MAX_PROPERTIES_BYTES) {
            throw new RejectedMessageException(AppendStatus.PROPERTIES_SIZE_EXCEEDED,
                    "properties " + properties.length + " bytes > " + RecordLayout.MAX_PROPERTIES_BYTES);
        }
        InetSocketAddress born = message.bornHost();
        if (born == null || born.isUnresolved()) {
            throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL, "bornHost " + born + " is not resolved");
        }
        HostAddress bornHost = HostAddress.of(born);
        int sysFlag = hostFlags(message.sysFlag(), bornHost);
        byte[] topic = message.topic().getBytes(StandardCharsets.US_ASCII);
        int recordBytes = RecordLayout.recordBytes(sysFlag, bodyLength, topic.length, properties.length);
        if (recordBytes + RecordLayout.BLANK_BYTES > segmentBytes) {
            throw new RejectedMessageException(AppendStatus.MESSAGE_ILLEGAL,
                    "record " + recordBytes + " bytes does not fit a " + segmentBytes + "-byte segment");
        }
        return new EncodedMessage(topic, message.queueId(), message.flag(), body, bodyOffset, bodyLength,
                BodyCrc.of(body, bodyOffset, bodyLength), properties,
                sysFlag, message.bornTimestamp(), bornHost, message.reconsumeTimes(),
                message.preparedTransactionOffset(), recordBytes);
    }

    HostAddress storeHost() {
        return storeHost;
    }

    private int hostFlags(int sysFlag, HostAddress bornHost) {
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
