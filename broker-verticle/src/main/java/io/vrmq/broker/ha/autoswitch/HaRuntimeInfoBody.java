package io.vrmq.broker.ha.autoswitch;

import java.util.List;

/**
 * The body of GET_BROKER_HA_STATUS (907) for {@code mqadmin haStatus}: RocketMQ's {@code HARuntimeInfo}, same JSON
 * fields. A master fills its own part and the link list, a slave the client part.
 * {@code {"haClientRuntimeInfo":{...},"haConnectionInfo":[{"addr":"127.0.0.1:52040","diff":0,"inSync":true,
 * "slaveAckOffset":4096,"transferFromWhere":4096,"transferredByteInSecond":0}],"inSyncSlaveNums":1,"master":true,
 * "masterCommitLogMaxOffset":4096}}}
 *
 * @param inSyncSlaveNums master: SyncStateSet size minus the master itself
 */
public record HaRuntimeInfoBody(boolean master, long masterCommitLogMaxOffset, int inSyncSlaveNums,
                                List<HaConnectionInfo> haConnectionInfo, HaClientInfo haClientRuntimeInfo) {

    /**
     * One slave link on a master.
     *
     * @param addr              the slave's address without RocketMQ's leading '/'
     * @param diff              master max offset minus the acknowledged offset
     * @param inSync            the slave is in the SyncStateSet
     * @param transferFromWhere where the next frame to the slave starts
     */
    public record HaConnectionInfo(String addr, long slaveAckOffset, long diff, boolean inSync,
                                   long transferredByteInSecond, long transferFromWhere) {
    }

    /**
     * A slave's link to its master.
     *
     * @param masterAddr       the master's HA address (absent while unknown)
     * @param maxOffset        this slave's CommitLog max offset
     * @param masterFlushOffset this slave's flushed CommitLog offset (RocketMQ reports the checkpoint's slot here)
     */
    public record HaClientInfo(String masterAddr, long transferredByteInSecond, long maxOffset,
                               long lastReadTimestamp, long lastWriteTimestamp, long masterFlushOffset) {
        static final HaClientInfo NONE = new HaClientInfo(null, 0, 0, 0, 0, 0);
    }
}
