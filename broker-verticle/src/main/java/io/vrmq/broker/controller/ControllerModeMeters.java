package io.vrmq.broker.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vrmq.broker.role.RoleState;

import java.util.List;
import java.util.Map;

/**
 * A controller-mode broker's meters (Prometheus {@code rocketmq_controller_mode_*} and {@code rocketmq_replication_*}):
 * role changes by new role, whether the broker is fenced, its master epoch, the SyncStateSet's size, the confirm
 * offset, and the replication lag in bytes (a master: its furthest-behind slave; a slave: how far it is behind what the
 * master last sent). Gauges read volatile state or the replication's any-thread views; thread-safe.
 */
final class ControllerModeMeters {
    private final Counter becameMaster;
    private final Counter becameSlave;

    ControllerModeMeters(MeterRegistry registry, RoleState role, ControllerReplication replication) {
        this.becameMaster = roleChanges(registry, "master");
        this.becameSlave = roleChanges(registry, "slave");
        Gauge.builder("rocketmq.controller.mode.fenced", role, state -> state.current().isFenced() ? 1 : 0)
            .description("1 while the broker takes no sends: no role yet, or a master without the controller's lease")
            .register(registry);
        Gauge.builder("rocketmq.controller.mode.master.epoch", role, state -> state.current().masterEpoch())
            .description("the master epoch of the broker's current role").register(registry);
        Gauge.builder("rocketmq.controller.mode.sync.state.set.size", replication,
                ha -> ha.syncStateSet().size())
            .description("replicas in the SyncStateSet as this broker last heard it").register(registry);
        Gauge.builder("rocketmq.replication.confirm.offset", replication, ControllerReplication::confirmOffset)
            .description("CommitLog offset below which every in-sync replica has every byte").register(registry);
        Gauge.builder("rocketmq.replication.lag.bytes", replication, ControllerModeMeters::lagBytes)
            .description("master: bytes its furthest-behind slave lacks; slave: bytes behind what the master sent")
            .register(registry);
    }

    void roleChanged(boolean isMaster) {
        (isMaster ? becameMaster : becameSlave).increment();
    }

    private static Counter roleChanges(MeterRegistry registry, String role) {
        return Counter.builder("rocketmq.controller.mode.role.changes").tag("role", role)
            .description("role changes the controller ordered, by the new role").register(registry);
    }

    /** From the replication's admin view, which every thread may read. */
    @SuppressWarnings("unchecked")
    private static double lagBytes(ControllerReplication replication) {
        Map<String, Object> status = replication.replicationStatus();
        Object slaves = status.get("slaves");
        if (slaves instanceof List<?> links) {
            return links.stream().mapToLong(link -> ((Number) ((Map<String, Object>) link)
                .getOrDefault("behindBytes", 0L)).longValue()).max().orElse(0);
        }
        Object seen = status.get("masterOffsetSeen");
        Object max = status.get("commitLogMaxOffset");
        if (seen instanceof Number masterSent && max instanceof Number local && masterSent.longValue() >= 0) {
            return Math.max(0, masterSent.longValue() - local.longValue());
        }
        return 0;
    }
}
