package io.vrmq.store.format;

/**
 * A message ready to be written: every variable part already turned into bytes, the body CRC computed and the
 * record size known, so the writer only copies. Built and owned by the writer thread; the body array is not copied
 * and must not change until the append returns. The body is {@code bodyLength} bytes of it from {@code bodyOffset}.
 *
 * @param sysFlag sys flag with the born/store host IPv6 bits already set to match the hosts
 */
public record EncodedMessage(
        byte[] topic,
        int queueId,
        int flag,
        byte[] body,
        int bodyOffset,
        int bodyLength,
        int bodyCrc,
        byte[] properties,
        int sysFlag,
        long bornTimestamp,
        HostAddress bornHost,
        int reconsumeTimes,
        long preparedTransactionOffset,
        int recordBytes) {

    /** A message whose body is the whole array. */
    public EncodedMessage(byte[] topic, int queueId, int flag, byte[] body, int bodyCrc, byte[] properties,
                          int sysFlag, long bornTimestamp, HostAddress bornHost, int reconsumeTimes,
                          long preparedTransactionOffset, int recordBytes) {
        this(topic, queueId, flag, body, 0, body.length, bodyCrc, properties, sysFlag, bornTimestamp, bornHost,
            reconsumeTimes, preparedTransactionOffset, recordBytes);
    }
}
