package io.vrmq.controller.state;

import java.util.Objects;

/**
 * One replica of a broker set as the controller recorded it when the broker applied for its id: the broker's address
 * ("host:port" of its main listener) and the check code it applied with ({@code "<address>;<epochMillis>"}), which
 * makes a retried apply of the same id by the same broker idempotent. Immutable.
 */
public record ReplicaRecord(String address, String registerCheckCode) {
    public ReplicaRecord {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(registerCheckCode, "registerCheckCode");
    }

    public ReplicaRecord withAddress(String newAddress) {
        return new ReplicaRecord(newAddress, registerCheckCode);
    }
}
