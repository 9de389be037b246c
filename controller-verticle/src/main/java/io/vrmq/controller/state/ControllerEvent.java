package io.vrmq.controller.state;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One entry of the replicated log: a change the leader decided. Each event carries the facts it was decided on (the
 * epochs, the check code) and re-checks them when applied, so an event decided against a state that has moved on
 * since is rejected at apply, identically on every node, instead of overwriting newer state. Written as JSON with a
 * {@code type} name.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ApplyBrokerIdEvent.class, name = "applyBrokerId"),
    @JsonSubTypes.Type(value = UpdateBrokerAddressEvent.class, name = "updateBrokerAddress"),
    @JsonSubTypes.Type(value = AlterSyncStateSetEvent.class, name = "alterSyncStateSet"),
    @JsonSubTypes.Type(value = ElectMasterEvent.class, name = "electMaster"),
    @JsonSubTypes.Type(value = CleanBrokerDataEvent.class, name = "cleanBrokerData")
})
public sealed interface ControllerEvent permits ApplyBrokerIdEvent, UpdateBrokerAddressEvent, AlterSyncStateSetEvent,
    ElectMasterEvent, CleanBrokerDataEvent {

    /** The broker set this event changes. */
    String brokerName();

    /** The next state, or a rejection naming the fact that no longer holds. Pure: no clock, no I/O. */
    ControllerState.Applied applyTo(ControllerState state);
}
