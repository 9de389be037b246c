package io.vrmq.remoting.launch;

import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The steps of one role's start and stop: which one runs now (for the launcher's logs when a stop waits) and whether
 * a stop asked the start to end early. A verticle runs each step of its start through {@link #run}, so that after
 * {@link #interrupt} the next step fails with a {@link CancellationException} instead of beginning; long blocking
 * steps (a store recovery) poll {@link #interruption()} themselves. Thread-safe: steps run on the verticle's context,
 * {@link #interrupt} comes from the shutdown thread.
 */
public final class LifecycleSteps {
    private static final Logger log = LoggerFactory.getLogger(LifecycleSteps.class);

    private final String role;
    private volatile String current = "not started";
    private volatile boolean isInterrupted;

    /** @param role the role's name in messages ("broker", "controller n0") */
    public LifecycleSteps(String role) {
        this.role = role;
    }

    /**
     * Begins {@code step} with {@code work} unless the start was interrupted; {@code work} throwing fails the future.
     */
    public <T> Future<T> run(String step, Supplier<Future<T>> work) {
        if (isInterrupted) {
            return Future.failedFuture(new CancellationException("the start of " + role + " was interrupted by a "
                + "stop before " + step));
        }
        enter(step);
        try {
            return work.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /** Runs a stop step: records it as the current one and begins {@code work}; never refused. */
    public <T> Future<T> stopStep(String step, Supplier<Future<T>> work) {
        enter(step);
        try {
            return work.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /** Records that {@code step} runs now (a stop step, or a part of a start step). */
    public void enter(String step) {
        current = step;
        log.info("{}: {}", role, step);
    }

    /** See {@link InterruptibleRole#interruptStart()}. Any thread. */
    public void interrupt() {
        isInterrupted = true;
    }

    public boolean isInterrupted() {
        return isInterrupted;
    }

    /** True once the start was interrupted, for blocking steps to poll (a store recovery between segments). */
    public BooleanSupplier interruption() {
        return () -> isInterrupted;
    }

    public String current() {
        return current;
    }
}
