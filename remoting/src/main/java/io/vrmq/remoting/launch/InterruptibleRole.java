package io.vrmq.remoting.launch;

/**
 * A role whose start can end early when a stop is asked for before it completed (a SIGTERM during a long store
 * recovery or a Raft start), and which says what it is doing, for the launcher's shutdown logs. Implemented by the
 * role's verticle, usually by delegating to a {@link LifecycleSteps}.
 */
public interface InterruptibleRole {

    /**
     * Asks a running {@code start()} to end soon: it stops at its next step, releases what it opened (a store it
     * opened is closed cleanly) and fails with a {@link java.util.concurrent.CancellationException}. A start that
     * already completed is not affected. Called at most once, from the shutdown thread; must not block.
     */
    void interruptStart();

    /** What start() or stop() is doing now ("opening the store", "closing the store"), for logs. Any thread. */
    String currentStep();
}
