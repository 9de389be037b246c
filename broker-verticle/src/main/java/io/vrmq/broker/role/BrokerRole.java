package io.vrmq.broker.role;

/**
 * What this broker is at one moment. Classic mode: fixed by brokerRole and brokerId. Controller mode: named by the
 * controller, so it changes at run time (a master registers as id 0, a slave under its controller id).
 *
 * @param brokerRole  ASYNC_MASTER, SYNC_MASTER or SLAVE, as RocketMQ reports it
 * @param brokerId    the id this broker registers with the NameServers: 0 while master, else its slave id
 *                    (-1 in controller mode before the controller assigned one)
 * @param masterEpoch controller mode: the epoch of the master this role belongs to (0 in classic mode)
 * @param isFenced    controller mode: takes no writes and does not register (no role yet, or a master whose lease on
 *                    the controller ran out)
 */
public record BrokerRole(String brokerRole, long brokerId, int masterEpoch, boolean isFenced) {
    public static final String ASYNC_MASTER = "ASYNC_MASTER";
    public static final String SYNC_MASTER = "SYNC_MASTER";
    public static final String SLAVE = "SLAVE";
    public static final long MASTER_ID = 0;

    /** Controller mode before the controller named a role. */
    public static BrokerRole fencedWithoutRole() {
        return new BrokerRole(SLAVE, -1, 0, true);
    }

    /** Takes sends and serves as the group's master. */
    public boolean isMaster() {
        return !isFenced && brokerId == MASTER_ID && !SLAVE.equals(brokerRole);
    }

    public boolean isSlave() {
        return SLAVE.equals(brokerRole);
    }

    public boolean isSyncMaster() {
        return SYNC_MASTER.equals(brokerRole);
    }

    public BrokerRole fenced(boolean fenced) {
        return new BrokerRole(brokerRole, brokerId, masterEpoch, fenced);
    }
}
