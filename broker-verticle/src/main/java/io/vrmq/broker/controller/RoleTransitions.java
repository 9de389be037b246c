package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vrmq.remoting.body.controller.SyncStateSetBody;

/**
 * What changes in the broker when the controller names its role: replication, the role it reports, the services
 * only a master runs, the metadata copy a slave runs, and its registration with the NameServers. Implemented by the
 * broker's wiring; called by {@link ControllerAgent} on the broker's context, one change at a time.
 */
public interface RoleTransitions {
    /**
     * This broker is the master of {@code masterEpoch}: replication becomes the master's, the broker registers as
     * id 0 and takes sends. {@code wasMaster}: it already was master under an older epoch (only the epoch moves).
     */
    Future<Void> becomeMaster(long controllerId, int masterEpoch, SyncStateSetBody syncStateSet, boolean wasMaster);

    /**
     * This broker follows the master at {@code masterAddress} (a broker address; the HA address comes from the
     * NameServers): it stops taking sends, registers under its controller id and replicates. {@code isSameMaster}:
     * only the epoch moved.
     */
    Future<Void> becomeSlave(long controllerId, int masterEpoch, String masterAddress, boolean isSameMaster);
}
