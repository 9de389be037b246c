package io.vrmq.remoting.launch;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a launched process ends: the JVM shutdown hook (SIGTERM, SIGINT) stops the roles and halts with the stop's exit
 * code (0 for a clean stop, also one that came before the start completed), and a failed start stops what did start
 * and exits 1. Both run on threads of their own, never on an event loop, so that a stop can wait for Vert.x to close
 * without holding the threads Vert.x needs for it.
 *
 * <p>Why halt: a JVM stopping on a signal exits 143 once its hooks return, whatever they did; {@code Runtime.halt}
 * from the hook (allowed while hooks run, unlike {@code System.exit}, which would block forever) is the only way to
 * say "stopped cleanly". Thread-safe.
 */
final class ProcessExit {
    private final RoleSupervisor supervisor;
    /** Set before our own System.exit, whose shutdown then finds everything already stopped. */
    private final AtomicBoolean isExitingOnItsOwn = new AtomicBoolean();

    ProcessExit(RoleSupervisor supervisor) {
        this.supervisor = supervisor;
    }

    void installShutdownHook() {
        Runtime.getRuntime().addShutdownHook(new Thread(this::onShutdown, "vrmq-shutdown"));
    }

    /** The start failed (already reported): stops what started, on a new thread, then exits 1. Any thread. */
    void exitAfterFailedStart() {
        Thread exit = new Thread(() -> exit(supervisor.stop("the start failed", true)), "vrmq-start-failed");
        exit.start();
    }

    /** Exits with {@code code} at once: nothing was started (main failed before Vert.x was up). */
    void exit(int code) {
        isExitingOnItsOwn.set(true);
        flushOutput();
        System.exit(code);
    }

    private void onShutdown() {
        if (isExitingOnItsOwn.get()) {
            return;
        }
        int code = supervisor.stop("the process was asked to stop: SIGTERM or SIGINT", false);
        flushOutput();
        Runtime.getRuntime().halt(code);
    }

    private static void flushOutput() {
        System.out.flush();
        System.err.flush();
    }
}
