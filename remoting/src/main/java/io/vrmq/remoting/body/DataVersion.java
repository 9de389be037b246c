package io.vrmq.remoting.body;

/**
 * A broker's topic-config version: the NameServer rewrites a broker's queue data only when it changes.
 * Two versions are the same when all three fields are equal, as in RocketMQ.
 */
public record DataVersion(long counter, long stateVersion, long timestamp) {
    public static DataVersion initial(long nowMs) {
        return new DataVersion(0, 0, nowMs);
    }

    public DataVersion next(long nowMs) {
        return new DataVersion(counter + 1, stateVersion, nowMs);
    }

    /** The next version under a new state version: controller mode sets it to the broker's master epoch. */
    public DataVersion next(long nowMs, long newStateVersion) {
        return new DataVersion(counter + 1, newStateVersion, nowMs);
    }
}
