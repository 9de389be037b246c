package io.vrmq.remoting.launch;

/**
 * How a launched process ends: the JVM shutdown hook (SIGTERM, SIGINT) stops the roles and halts with the stop's exit
 * code (0 for a clean stop, also one that came before the start completed), and a failed start stops what did start
 * and exits 1. Both run on threads of their own, never on an event loop, so that a stop can wait for Vert.x to close
 * without holding the threads Vert.x needs for it.
 *
 * <p>Install it first thing in {@code main} ({@link #install()}: this class loads nothing else, not even logging), so
 * that a SIGTERM while the JVM is still loading classes exits 0 as well; then hand it to {@link RoleLauncher}.
 *
 * <p>Why halt: a JVM stopping on a signal exits 143 once its hooks return, whatever they did; {@code Runtime.halt}
 * from the hook (allowed while hooks run, unlike {@code System.exit}, which would block forever) is the only way to
 * say "stopped cleanly". Thread-safe.
 *
 * <p>Why a hook of our own beside the Vert.x launcher's: the launcher adds its hook (which only closes Vert.x) once
 * Vert.x runs, so a SIGTERM before that would find none, and its hook cannot halt with our exit code. Both hooks end
 * in the same ordered stop ({@link RoleSupervisor}'s close hook), run once.
 */
public final class ProcessExit {
    private RoleSupervisor supervisor;      // guarded by this
    private boolean isShutdownBegun;        // guarded by this
    /** Set before our own System.exit, whose shutdown then finds everything already stopped. */
    private volatile boolean isExitingOnItsOwn;

    private ProcessExit() {
    }

    /** Installs the shutdown hook; until {@link #supervise} a stop has nothing to stop and exits 0. */
    public static ProcessExit install() {
        ProcessExit exit = new ProcessExit();
        Runtime.getRuntime().addShutdownHook(new Thread(exit::onShutdown, "vrmq-shutdown"));
        return exit;
    }

    /** From now on a stop stops {@code roles}; false when the shutdown already began (start nothing then). */
    synchronized boolean supervise(RoleSupervisor roles) {
        if (isShutdownBegun) {
            return false;
        }
        supervisor = roles;
        return true;
    }

    /** The start failed (already reported): stops what started, on a new thread, then exits 1. Any thread. */
    void exitAfterFailedStart(RoleSupervisor roles) {
        Thread exit = new Thread(() -> exit(roles.stop("the start failed", true)), "vrmq-start-failed");
        exit.start();
    }

    /**
     * Exits with {@code code}; everything was stopped already (or never started). {@code main} uses it for a start it
     * refuses before any role runs: a plain System.exit would reach the hook, which takes it for a signal. Never on an
     * event loop.
     */
    public void exit(int code) {
        isExitingOnItsOwn = true;
        flushOutput();
        System.exit(code);
    }

    private void onShutdown() {
        if (isExitingOnItsOwn) {
            return;
        }
        RoleSupervisor roles;
        synchronized (this) {
            isShutdownBegun = true;
            roles = supervisor;
        }
        int code = roles == null ? RoleSupervisor.EXIT_OK
            : roles.stop("the process was asked to stop: SIGTERM or SIGINT", false);
        flushOutput();
        Runtime.getRuntime().halt(code);
    }

    private static void flushOutput() {
        System.out.flush();
        System.err.flush();
    }
}
