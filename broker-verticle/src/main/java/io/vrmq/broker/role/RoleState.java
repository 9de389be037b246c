package io.vrmq.broker.role;

/**
 * This broker's current {@link BrokerRole}. Read on every send and pull from any thread; changed only by the broker's
 * role logic (the controller agent, in controller mode) on the broker's context, so a volatile reference suffices.
 */
public final class RoleState {
    private volatile BrokerRole current;

    public RoleState(BrokerRole initial) {
        this.current = initial;
    }

    public BrokerRole current() {
        return current;
    }

    public void set(BrokerRole role) {
        this.current = role;
    }
}
