package io.vrmq.remoting.launch;

import io.vertx.core.Completable;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.config.RoleConfigLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Starts the roles of one process in order (for each: its config, its verticle, its deployment) and stops them, last
 * first, within {@code shutdownGraceMs}: the largest value among the roles whose config was read, or the first
 * role's embedded default before any was. A role begins once every role before it serves (its deployment completed,
 * or sooner for a {@link ServingRole}: the NameServer once its remoting port listens, its admin API still starting);
 * a role marked {@link RoleLauncher.Role#besideEarlierRoles} begins at once, beside the roles before it, and waits for
 * them itself ({@link StartsBeside}: the broker opens its store while the NameServer starts); when one of them fails,
 * its start is interrupted (a store recovery need not run to its end for nothing). The start completes when every
 * role's start ended, with the failure of the first role in order that failed.
 *
 * <p>The same ordered stop runs whoever ends the process: our shutdown hook ({@link ProcessExit}) calls {@link #stop},
 * the Vert.x launcher's own shutdown hook calls {@code vertx.close()}, whose close hook ({@link #closeHook}) runs the
 * roles' part of the stop before Vert.x undeploys anything; the part runs once, a second caller waits for it.
 *
 * <p>A stop during a start first interrupts the role that is starting (see {@link InterruptibleRole}) and waits for
 * its start to end, so that no verticle is still opening files when Vert.x closes its pools; roles not started yet
 * are never started. Then it undeploys the started roles, last first, then closes Vert.x. Every wait is logged with
 * what it waits for, and again every second while it lasts; when the grace runs out the stop gives up, logs what did
 * not finish and reports exit code 1.
 *
 * <p>Threads: {@link #start} on any thread (it only composes futures). {@link #stop} blocks and must run on a thread of
 * its own (the shutdown hook, the start-failure thread), never on an event loop; when two threads call it, the second
 * waits for the first's exit code.
 */
final class RoleSupervisor {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final String GRACE_KEY = "shutdownGraceMs";
    private static final Logger log = LoggerFactory.getLogger(RoleSupervisor.class);
    /** How often a long wait logs that it still waits. */
    private static final long PROGRESS_LOG_INTERVAL_MS = 1_000;
    /** A second stop waits for the first this much past the grace (the first gives up at the grace itself). */
    private static final long SECOND_STOP_MARGIN_MS = 1_000;

    private final List<RoleLauncher.Role> roles;
    private final Object lock = new Object();
    private final List<Deployed> deployed = new ArrayList<>();   // guarded by lock
    private final CompletableFuture<Void> startEnded = new CompletableFuture<>();
    private final CompletableFuture<Integer> stopped = new CompletableFuture<>();
    private final AtomicBoolean isStopping = new AtomicBoolean();
    private final AtomicBoolean isStoppingRoles = new AtomicBoolean();
    private final CompletableFuture<RolesOutcome> rolesStopped = new CompletableFuture<>();
    private Vertx vertx;                // guarded by lock
    private boolean isStopRequested;    // guarded by lock
    /** Guarded by lock: by role index, the roles whose config or deployment runs now. */
    private final Map<Integer, Starting> starting = new TreeMap<>();
    private volatile long graceMs;
    private volatile long stopBeganNanos;      // written by the first stopRoles, before rolesStopped completes
    private volatile long stopDeadlineNanos;   // likewise

    RoleSupervisor(List<RoleLauncher.Role> roles) {
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("no role to start");
        }
        this.roles = List.copyOf(roles);
        this.graceMs = requireGrace(RoleConfigLoader.defaults(roles.get(0).defaultsResource()),
            roles.get(0).defaultsResource());
    }

    /** The bound of the whole stop now, milliseconds. */
    long graceMs() {
        return graceMs;
    }

    boolean isStopRequested() {
        synchronized (lock) {
            return isStopRequested;
        }
    }

    /**
     * Starts every role, each once the earlier ones serve (see the class comment). Completes when every start ended;
     * fails with the failure of the first role (in order) that failed; after a stop was requested, with a
     * {@link CancellationException} (or whatever the interrupted start failed with). Also makes every
     * {@code vertx.close()} (the Vert.x launcher's shutdown hook calls one) begin with this supervisor's ordered stop,
     * see {@link #closeHook}.
     */
    Future<Void> start(Vertx vertx) {
        synchronized (lock) {
            this.vertx = vertx;
        }
        if (vertx instanceof VertxInternal internal) {
            internal.addCloseHook(this::closeHook);
        }
        Future<Void> earlierServing = Future.succeededFuture();
        List<Future<Void>> starts = new ArrayList<>();
        for (int index = 0; index < roles.size(); index++) {
            RoleLauncher.Role role = roles.get(index);
            int roleIndex = index;
            Future<Void> gate = earlierServing;
            Promise<Void> serving = Promise.promise();
            Future<Void> started;
            if (role.startsBeside()) {
                gate.onFailure(earlierFailed -> interruptStarting(roleIndex));
                started = startRole(vertx, roleIndex, role, gate, serving);
            } else {
                started = gate.compose(ready -> startRole(vertx, roleIndex, role, gate, serving));
            }
            started.onFailure(serving::tryFail);
            starts.add(started);
            earlierServing = Future.all(gate, serving.future()).mapEmpty();
        }
        return Future.join(starts).transform(ended -> {
            startEnded.complete(null);
            return starts.stream().filter(Future::failed).findFirst().orElse(Future.succeededFuture());
        });
    }

    /**
     * Vert.x runs its close hooks before it undeploys anything, so whoever closes Vert.x (our stop, the launcher's
     * shutdown hook, a test) first gets the roles stopped in order (interrupted start, last first, within the grace).
     * Vert.x calls this while it holds its own lock (the one {@code createSharedWorkerExecutor} takes), so the stop
     * runs on a thread of its own and this returns at once.
     */
    private void closeHook(Completable<Void> done) {
        Thread stopping = new Thread(() -> {
            stopRoles("Vert.x is closing");
            done.succeed();
        }, "vrmq-stop-roles");
        stopping.start();
    }

    /**
     * Reads the role's config, builds and deploys its verticle; {@code serving} completes when the role serves.
     * {@code earlierServing} goes to a role that starts beside the earlier ones.
     */
    private Future<Void> startRole(Vertx vertx, int index, RoleLauncher.Role role, Future<Void> earlierServing,
                                   Promise<Void> serving) {
        if (!becomeStarting(index, new Starting(role.name(), null))) {
            return Future.failedFuture(new CancellationException("stop requested before " + role.name() + " started"));
        }
        log.info("{}: reading its config ({} over the embedded defaults){}", role.name(),
            role.configPath() == null ? "no file" : role.configPath(), role.startsBeside()
                ? ", beside the start of the roles before it" : "");
        return RoleConfigLoader.load(vertx, role.defaultsResource(), role.siblingResources(), role.configPath())
            .compose(config -> deploy(vertx, index, role, config, earlierServing, serving))
            .andThen(done -> {
                synchronized (lock) {
                    starting.remove(index);
                }
            });
    }

    private Future<Void> deploy(Vertx vertx, int index, RoleLauncher.Role role, JsonObject config,
                                Future<Void> earlierServing, Promise<Void> serving) {
        Long roleGraceMs = config.getLong(GRACE_KEY);
        synchronized (lock) {
            if (roleGraceMs != null && roleGraceMs > graceMs) {
                graceMs = roleGraceMs;
            }
        }
        Deployable deployable = role.verticleFactory().apply(config);
        if (role.startsBeside()) {
            if (!(deployable instanceof StartsBeside beside)) {
                throw new IllegalStateException(role.name() + " is to start beside the roles before it, but its "
                    + deployable.getClass().getName() + " cannot wait for them (not a StartsBeside)");
            }
            if (earlierServing.failed()) {
                return Future.failedFuture(earlierServing.cause());   // nothing to start beside any more
            }
            beside.startBeside(earlierServing);
        }
        if (!becomeStarting(index, new Starting(role.name(), deployable))) {
            return Future.failedFuture(new CancellationException("stop requested before " + role.name() + " started"));
        }
        if (deployable instanceof ServingRole servingRole) {
            servingRole.serving().onSuccess(ready -> serving.tryComplete()).onFailure(serving::tryFail);
        }
        return vertx.deployVerticle(deployable).map(id -> {
            synchronized (lock) {
                deployed.add(new Deployed(index, role.name(), id, deployable));
            }
            serving.tryComplete();
            return null;
        });
    }

    /** An earlier role failed: the role starting beside it ends its start at its next step. */
    private void interruptStarting(int index) {
        Starting role;
        synchronized (lock) {
            role = starting.get(index);
        }
        if (role != null && role.deployable() instanceof InterruptibleRole interruptible) {
            interruptible.interruptStart();
        }
    }

    private boolean becomeStarting(int index, Starting next) {
        synchronized (lock) {
            if (isStopRequested) {
                return false;
            }
            starting.put(index, next);
            return true;
        }
    }

    /**
     * Stops everything within the grace; returns the exit code: 0 when every step ended in time and cleanly (1 when
     * {@code isAfterFailedStart}), 1 when one failed or the grace ran out. Blocks: never call on an event loop.
     */
    int stop(String reason, boolean isAfterFailedStart) {
        if (!isStopping.compareAndSet(false, true)) {
            return awaitOtherStop();
        }
        int code;
        try {
            code = stopAll(reason, isAfterFailedStart);
        } catch (RuntimeException e) {
            log.error("the stop failed", e);
            code = EXIT_FAILED;
        }
        stopped.complete(code);
        return code;
    }

    private int stopAll(String reason, boolean isAfterFailedStart) {
        RolesOutcome outcome = stopRoles(reason);
        if (outcome == RolesOutcome.EXCEEDED) {
            return EXIT_FAILED;
        }
        boolean isClean = outcome == RolesOutcome.CLEAN;
        Vertx closing;
        synchronized (lock) {
            closing = vertx;
        }
        if (closing != null) {
            // When the launcher's shutdown hook closed Vert.x first, this returns at once: the roles are stopped
            // already (its close waited for them), what is left of its close is pools and event loops.
            Outcome closed = await("Vert.x to close (worker pools, event loops)", () -> "closing",
                closing.close().toCompletionStage(), stopDeadlineNanos);
            if (closed == Outcome.TIMED_OUT) {
                return exceeded("closing Vert.x", "worker pools and event loops", List.of());
            }
            isClean &= closed == Outcome.DONE;
        }
        log.info("stopped in {} ms{}", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopBeganNanos),
            isClean ? "" : ", not cleanly (see above)");
        return isAfterFailedStart || !isClean ? EXIT_FAILED : EXIT_OK;
    }

    /**
     * The first part of every stop, run once (a second caller waits for the first's outcome): interrupts the role
     * that is starting and waits for its start to end, then undeploys the started roles, last first. Blocks.
     */
    private RolesOutcome stopRoles(String reason) {
        if (!isStoppingRoles.compareAndSet(false, true)) {
            try {
                return rolesStopped.get(graceMs + SECOND_STOP_MARGIN_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                return RolesOutcome.EXCEEDED;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return RolesOutcome.EXCEEDED;
            }
        }
        RolesOutcome outcome;
        try {
            outcome = stopRolesNow(reason);
        } catch (RuntimeException e) {
            log.error("the stop of the roles failed", e);
            outcome = RolesOutcome.NOT_CLEAN;
        }
        rolesStopped.complete(outcome);
        return outcome;
    }

    private RolesOutcome stopRolesNow(String reason) {
        stopBeganNanos = System.nanoTime();
        List<Starting> interrupted;
        Vertx closing;
        synchronized (lock) {
            isStopRequested = true;
            interrupted = List.copyOf(starting.values());
            closing = vertx;
        }
        long deadlineNanos = stopBeganNanos + TimeUnit.MILLISECONDS.toNanos(graceMs);
        stopDeadlineNanos = deadlineNanos;
        log.info("stopping ({}): everything must end within shutdownGraceMs {} ms", reason, graceMs);
        if (!interrupted.isEmpty()) {
            interrupted.forEach(role -> {
                if (role.deployable() instanceof InterruptibleRole interruptible) {
                    interruptible.interruptStart();
                }
            });
            String names = interrupted.stream().map(Starting::name).collect(Collectors.joining(" and "));
            Supplier<String> steps = () -> interrupted.stream().map(role -> stepOf(role.deployable()))
                .collect(Collectors.joining("; "));
            Outcome outcome = await("the start of " + names + " to end", steps, startEnded, deadlineNanos);
            if (outcome == Outcome.TIMED_OUT) {
                List<String> notStopped = new ArrayList<>(interrupted.stream().map(role -> role.name()
                    + " (starting)").toList());
                notStopped.addAll(names());
                exceeded("the start of " + names, steps.get(), notStopped);
                return RolesOutcome.EXCEEDED;
            }
        }
        boolean isClean = true;
        List<Deployed> toStop = startedLastFirst();
        for (int i = 0; i < toStop.size(); i++) {
            Deployed role = toStop.get(i);
            Outcome outcome = await("the stop of " + role.name(), () -> stepOf(role.deployable()),
                closing.undeploy(role.id()).toCompletionStage(), deadlineNanos);
            if (outcome == Outcome.TIMED_OUT) {
                exceeded("the stop of " + role.name(), stepOf(role.deployable()),
                    toStop.subList(i, toStop.size()).stream().map(Deployed::name).toList());
                return RolesOutcome.EXCEEDED;
            }
            isClean &= outcome == Outcome.DONE;
        }
        return isClean ? RolesOutcome.CLEAN : RolesOutcome.NOT_CLEAN;
    }

    /** The started roles, last in role order first (roles started beside others may end their start sooner). */
    private List<Deployed> startedLastFirst() {
        List<Deployed> lastFirst;
        synchronized (lock) {
            lastFirst = new ArrayList<>(deployed);
        }
        lastFirst.sort(Comparator.comparingInt(Deployed::index).reversed());
        return lastFirst;
    }

    private List<String> names() {
        return startedLastFirst().stream().map(Deployed::name).toList();
    }

    private Outcome await(String what, Supplier<String> step, CompletionStage<?> stage,
                          long deadlineNanos) {
        CompletableFuture<?> future = stage.toCompletableFuture();
        long beganNanos = System.nanoTime();
        if (!future.isDone()) {
            log.info("waiting for {} ({}), up to {} ms", what, step.get(), millisLeft(deadlineNanos));
        }
        while (true) {
            long leftMs = millisLeft(deadlineNanos);
            try {
                future.get(Math.max(0, Math.min(leftMs, PROGRESS_LOG_INTERVAL_MS)), TimeUnit.MILLISECONDS);
                return Outcome.DONE;
            } catch (TimeoutException e) {
                if (millisLeft(deadlineNanos) <= 0) {
                    return Outcome.TIMED_OUT;
                }
                log.info("still waiting for {} ({}): {} ms so far, {} ms left", what, step.get(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - beganNanos), millisLeft(deadlineNanos));
            } catch (ExecutionException e) {
                log.error("{} failed", what, e.getCause());
                return Outcome.FAILED;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Outcome.TIMED_OUT;
            }
        }
    }

    private int exceeded(String what, String step, List<String> notStopped) {
        log.error("shutdownGraceMs {} ms exceeded: {} did not finish (at: {}); not stopped: {}; exiting with {}",
            graceMs, what, step, notStopped.isEmpty() ? "none" : String.join(", ", notStopped), EXIT_FAILED);
        return EXIT_FAILED;
    }

    private int awaitOtherStop() {
        try {
            return stopped.get(graceMs + SECOND_STOP_MARGIN_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return EXIT_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return EXIT_FAILED;
        }
    }

    private static String stepOf(Deployable deployable) {
        return deployable instanceof InterruptibleRole role ? role.currentStep()
            : deployable == null ? "reading its config" : "no step reported";
    }

    private static long millisLeft(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }

    private static long requireGrace(JsonObject defaults, String resource) {
        Long value = defaults.getLong(GRACE_KEY);
        if (value == null || value <= 0) {
            throw new IllegalStateException("embedded default config " + resource + " has no positive " + GRACE_KEY);
        }
        return value;
    }

    private enum Outcome { DONE, FAILED, TIMED_OUT }

    /** How the roles' part of a stop ended; EXCEEDED was logged already. */
    private enum RolesOutcome { CLEAN, NOT_CLEAN, EXCEEDED }

    private record Starting(String name, Deployable deployable) {
    }

    private record Deployed(int index, String name, String id, Deployable deployable) {
    }
}
