package io.vrmq.compat.broker.support;

import java.time.Duration;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * A broker's CommitLog by offset, as the official admin reads it: its end ({@code commitLogMaxOffset} of
 * GET_BROKER_RUNTIME_INFO (28), what {@code mqadmin brokerStatus} prints) and the message at an offset. Ours and
 * Apache's brokers both answer, master or slave, so replication can be compared across implementations. Stateless.
 */
public final class CommitLogOffsets {

    public static final String MAX_OFFSET_KEY = "commitLogMaxOffset";
    private static final long VIEW_TIMEOUT_MS = 5_000;

    private CommitLogOffsets() {
    }

    /** The next commitLogOffset the broker at {@code brokerAddr} will write (the end of what it holds). */
    public static long maxOffset(DefaultMQAdminExt admin, String brokerAddr) throws Exception {
        String value = admin.fetchBrokerRuntimeStats(brokerAddr).getTable().get(MAX_OFFSET_KEY);
        if (value == null) {
            throw new AssertionError("the runtime info of " + brokerAddr + " has no " + MAX_OFFSET_KEY);
        }
        return Long.parseLong(value);
    }

    /**
     * VIEW_MESSAGE_BY_ID (33) sent to {@code brokerAddr}: the message stored at the commitLogOffset that
     * {@code offsetMsgId} (a SendResult's offsetMsgId) encodes. The admin's own viewMessage dials the store host
     * written in the id, which is always the master; this asks a slave what it holds at the same offset.
     */
    public static MessageExt viewMessageAt(DefaultMQAdminExt admin, String brokerAddr, String topic,
                                           String offsetMsgId) throws Exception {
        long commitLogOffset = MessageDecoder.decodeMessageId(offsetMsgId).getOffset();
        return admin.getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl()
            .viewMessage(brokerAddr, topic, commitLogOffset, VIEW_TIMEOUT_MS);
    }

    /**
     * Waits until the slave holds exactly what the master holds and returns that offset. The master must not be
     * written to meanwhile; its offset is read again on every poll all the same.
     */
    public static long awaitSlaveCaughtUp(DefaultMQAdminExt admin, String masterAddr, String slaveAddr,
                                          Duration timeout) {
        long[] offsets = new long[2];
        try {
            Await.until("slave " + slaveAddr + " at the CommitLog end of master " + masterAddr, timeout, () -> {
                offsets[0] = maxOffset(admin, masterAddr);
                offsets[1] = maxOffset(admin, slaveAddr);
                return offsets[0] == offsets[1];
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last seen: master " + offsets[0] + ", slave " + offsets[1], e);
        }
        return offsets[0];
    }
}
