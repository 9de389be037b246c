package io.vrmq.store;

import java.time.Instant;
import java.time.InstantSource;

/** A clock a test moves by hand. */
final class MutableClock implements InstantSource {
    private volatile long millis;

    MutableClock(long millis) {
        this.millis = millis;
    }

    void set(long newMillis) {
        millis = newMillis;
    }

    void advance(long deltaMillis) {
        millis += deltaMillis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public long millis() {
        return millis;
    }
}
