package io.vrmq.controller.decision;

import io.vrmq.controller.state.AlterSyncStateSetEvent;
import io.vrmq.controller.state.ApplyBrokerIdEvent;
import io.vrmq.controller.state.ControllerEvent;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.ElectMasterEvent;

import java.util.TreeSet;

/** Builds controller states for decision tests by applying the events the controller itself would log. */
final class States {
    static final String SET = "b1";

    private States() {
    }

    /** Replicas 1..count of set b1 applied and registered, no election yet. */
    static ControllerState registered(int count) {
        ControllerState state = ControllerState.EMPTY;
        for (long id = 1; id <= count; id++) {
            state = apply(state, new ApplyBrokerIdEvent(FakeLiveness.CLUSTER, SET, id, address(id),
                address(id) + ";" + id));
        }
        return state;
    }

    /** {@link #registered} with {@code master} elected (master epoch 1, set epoch 1, set {master}). */
    static ControllerState withMaster(int count, long master) {
        return apply(registered(count), new ElectMasterEvent(SET, master, 0, 0));
    }

    /** {@link #withMaster} and the SyncStateSet grown to {@code ids} (set epoch 2). */
    static ControllerState withSyncStateSet(int count, long master, Long... ids) {
        return apply(withMaster(count, master), new AlterSyncStateSetEvent(SET, master, 1, 1,
            new TreeSet<>(java.util.List.of(ids))));
    }

    static String address(long id) {
        return "127.0.0.1:" + (10000 + id);
    }

    static ControllerState apply(ControllerState state, ControllerEvent event) {
        ControllerState.Applied applied = state.apply(event);
        if (!applied.isAccepted()) {
            throw new IllegalStateException("test setup event rejected: " + applied.rejection());
        }
        return applied.state();
    }
}
