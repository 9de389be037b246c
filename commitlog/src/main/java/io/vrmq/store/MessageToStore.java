package io.vrmq.store;

import java.net.InetSocketAddress;

/**
 * One message as the broker hands it to {@link MessageStore#append}. The store assigns queue offset, commit-log
 * offset and store timestamp. TAGS, KEYS and UNIQ_KEY are read from {@code properties} by the dispatcher (so that a
 * ConsumeQueue or index rebuilt from the CommitLog after a crash is identical to the first one); the sys flag's host
 * IPv6 bits are set by the store to match {@code bornHost} and the store host.
 *
 * @param body       not copied: do not change it until the append returns; the body is its {@code bodyLength} bytes
 *                   from {@code bodyOffset} (a send's body is stored from the request frame's own array, not a copy)
 * @param properties RocketMQ's encoding {@code name\u0001value\u0002...}, "" when none; at most 32767 UTF-8 bytes
 */
public record MessageToStore(
        String topic,
        int queueId,
        int flag,
        byte[] body,
        int bodyOffset,
        int bodyLength,
        String properties,
        int sysFlag,
        long bornTimestamp,
        InetSocketAddress bornHost,
        int reconsumeTimes,
        long preparedTransactionOffset) {

    public MessageToStore {
        if (body == null ? bodyOffset != 0 || bodyLength != 0
            : bodyOffset < 0 || bodyLength < 0 || bodyLength > body.length - bodyOffset) {
            throw new IllegalArgumentException("body range " + bodyOffset + "+" + bodyLength + " outside "
                + (body == null ? "no body" : body.length + " bytes"));
        }
    }

    /** A message whose body is the whole array. */
    public MessageToStore(String topic, int queueId, int flag, byte[] body, String properties, int sysFlag,
                          long bornTimestamp, InetSocketAddress bornHost, int reconsumeTimes,
                          long preparedTransactionOffset) {
        this(topic, queueId, flag, body, 0, body == null ? 0 : body.length, properties, sysFlag, bornTimestamp,
            bornHost, reconsumeTimes, preparedTransactionOffset);
    }

    /** A plain message: no flag, sys flag 0, born now at 127.0.0.1:0, no retries, no transaction. */
    public static MessageToStore of(String topic, int queueId, byte[] body, String properties) {
        return new MessageToStore(topic, queueId, 0, body, properties, 0, System.currentTimeMillis(),
                new InetSocketAddress("127.0.0.1", 0), 0, 0);
    }
}
