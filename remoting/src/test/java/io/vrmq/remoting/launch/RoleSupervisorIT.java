package io.vrmq.remoting.launch;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stop of a launched process at any moment, in-process (the exit itself, SIGTERM and exit codes of real
 * processes, are checked by compat-tests' lifecycle ITs): a start in progress is interrupted and waited for, started
 * roles stop last first, roles not started yet never start, and the exit code says whether everything ended cleanly
 * within shutdownGraceMs. Roles begin once the earlier ones serve, or beside them when marked so. The stops run on the test thread, as they run on the shutdown hook's.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RoleSupervisorIT {
    private static final String ROLE_DEFAULTS = "lifecycle-defaults.json";
    /** shutdownGraceMs 300: a stop that has to give up does so quickly. */
    private static final String SHORT_GRACE_DEFAULTS = "short-grace-defaults.json";
    private static final long AWAIT_SECONDS = 10;

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Test
    void aStopDuringAStartInterruptsItWaitsForItAndExitsZero() throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        RoleSupervisor supervisor = new RoleSupervisor(List.of(role(ROLE_DEFAULTS,
            config -> new InterruptibleVerticle("slow", starting))));
        Future<Void> started = supervisor.start(Vertx.vertx());
        assertTrue(starting.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the start began");

        int code = supervisor.stop("test", false);

        assertEquals(RoleSupervisor.EXIT_OK, code);
        assertEquals(List.of("slow start", "slow interrupted"), events, "interrupted, never stopped: never started");
        assertInstanceOf(CancellationException.class, failureOf(started));
    }

    @Test
    void startedRolesStopLastFirstAndRolesAfterTheInterruptedOneNeverStart() throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        AtomicInteger laterRolesBuilt = new AtomicInteger();
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new QuickVerticle("first")),
            role(ROLE_DEFAULTS, config -> new QuickVerticle("second")),
            role(ROLE_DEFAULTS, config -> new InterruptibleVerticle("third", starting)),
            role(ROLE_DEFAULTS, config -> {
                laterRolesBuilt.incrementAndGet();
                return new QuickVerticle("fourth");
            })));
        supervisor.start(Vertx.vertx());
        assertTrue(starting.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the third start began");

        int code = supervisor.stop("test", false);

        assertEquals(RoleSupervisor.EXIT_OK, code);
        assertEquals(List.of("first start", "second start", "third start", "third interrupted", "second stop",
            "first stop"), events);
        assertEquals(0, laterRolesBuilt.get(), "the role after the interrupted one is never built");
    }

    @Test
    void aVertxCloseFromElsewhereStopsTheRolesInOrderFirstAndOurStopThenFindsThemStopped() throws Exception {
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new QuickVerticle("first")),
            role(ROLE_DEFAULTS, config -> new QuickVerticle("second"))));
        Vertx vertx = Vertx.vertx();
        supervisor.start(vertx).toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);

        // what the Vert.x launcher's shutdown hook does on SIGTERM, at the same time as our own hook's stop
        vertx.close().toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);

        assertEquals(List.of("first start", "second start", "second stop", "first stop"), events,
            "Vert.x's close waited for the ordered stop instead of undeploying everything at once");
        assertEquals(RoleSupervisor.EXIT_OK, supervisor.stop("signal", false));
        assertEquals(4, events.size(), "nothing stopped twice");
    }

    @Test
    void aStartThatDoesNotEndWithinTheGraceMakesTheStopGiveUpWithExitCodeOne() throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        RoleSupervisor supervisor = new RoleSupervisor(List.of(role(SHORT_GRACE_DEFAULTS,
            config -> new NeverStartingVerticle(starting))));
        supervisor.start(Vertx.vertx());
        assertTrue(starting.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the start began");

        assertEquals(RoleSupervisor.EXIT_FAILED, supervisor.stop("test", false));
    }

    @Test
    void aStopBeforeTheStartStartsNothingAndExitsZero() throws Exception {
        AtomicInteger built = new AtomicInteger();
        RoleSupervisor supervisor = new RoleSupervisor(List.of(role(ROLE_DEFAULTS, config -> {
            built.incrementAndGet();
            return new QuickVerticle("never");
        })));

        assertEquals(RoleSupervisor.EXIT_OK, supervisor.stop("test", false));

        Vertx vertx = Vertx.vertx();
        try {
            assertInstanceOf(CancellationException.class, failureOf(supervisor.start(vertx)));
            assertEquals(0, built.get());
        } finally {
            vertx.close();
        }
    }

    @Test
    void aRoleWhoseStopFailsMakesTheExitCodeOneAndTheOthersStillStop() throws Exception {
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new QuickVerticle("first")),
            role(ROLE_DEFAULTS, config -> new FailingStopVerticle("second"))));
        supervisor.start(Vertx.vertx()).toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS,
            TimeUnit.SECONDS);

        assertEquals(RoleSupervisor.EXIT_FAILED, supervisor.stop("test", false));
        assertEquals(List.of("first start", "second start", "second stop", "first stop"), events);
    }

    @Test
    void theStopAfterAFailedStartExitsOneAndAConcurrentSecondStopGetsTheSameCode() throws Exception {
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new QuickVerticle("first")),
            role(ROLE_DEFAULTS, config -> {
                throw new IllegalArgumentException("bad config");
            })));
        Throwable failure = failureOf(supervisor.start(Vertx.vertx()));
        assertEquals("bad config", failure.getMessage());

        assertEquals(RoleSupervisor.EXIT_FAILED, supervisor.stop("start failed", true));
        assertEquals(RoleSupervisor.EXIT_FAILED, supervisor.stop("signal", false), "the second stop waits for the"
            + " first and reports its code");
        assertEquals(List.of("first start", "first stop"), events);
    }

    @Test
    void aRoleStartingBesideBeginsAtOnceAndGoesOnOnlyOnceTheEarlierRolesServe() throws Exception {
        Promise<Void> firstStarts = Promise.promise();
        CountDownLatch secondBegan = new CountDownLatch(1);
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new PendingVerticle("first", firstStarts.future(), null)),
            role(ROLE_DEFAULTS, config -> new BesideVerticle("second", secondBegan)).besideEarlierRoles()));
        Future<Void> started = supervisor.start(Vertx.vertx());

        assertTrue(secondBegan.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the second role began before the first served");
        awaitEvent("first start");   // the two starts run on their own event loops: either may be recorded first
        assertEquals(List.of("first start", "second start"), List.copyOf(events).stream().sorted().toList());
        firstStarts.complete();
        started.toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);

        assertEquals("second went on", events.get(events.size() - 1), "it went on only after the first served");
        assertEquals(RoleSupervisor.EXIT_OK, supervisor.stop("test", false));
        assertEquals(List.of("second stop", "first stop"), events.subList(events.size() - 2, events.size()));
    }

    @Test
    void aRoleAfterAServingRoleBeginsOnceItServesAndTheStopKeepsTheRoleOrder() throws Exception {
        Promise<Void> firstServes = Promise.promise();
        Promise<Void> firstStarts = Promise.promise();
        CountDownLatch thirdBegan = new CountDownLatch(1);
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new PendingVerticle("first", firstStarts.future(), firstServes.future())),
            role(ROLE_DEFAULTS, config -> new QuickVerticle("second")),
            role(ROLE_DEFAULTS, config -> new BesideVerticle("third", thirdBegan)).besideEarlierRoles()));
        Future<Void> started = supervisor.start(Vertx.vertx());
        assertTrue(thirdBegan.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the third began");
        assertEquals(List.of("first start"), events.stream().filter(event -> !event.startsWith("third")).toList(),
            "the second waits for the first to serve");

        firstServes.complete();
        awaitEvent("third went on");
        assertTrue(events.contains("second start"), "the second began once the first served: " + events);
        assertEquals(false, started.isComplete(), "the start completes only with the first's");
        firstStarts.complete();
        started.toCompletionStage().toCompletableFuture().get(AWAIT_SECONDS, TimeUnit.SECONDS);

        assertEquals(RoleSupervisor.EXIT_OK, supervisor.stop("test", false));
        assertEquals(List.of("third stop", "second stop", "first stop"), events.subList(events.size() - 3,
            events.size()), "last in role order first, though the first's start ended last");
    }

    @Test
    void anEarlierRoleWhoseStartFailsFailsTheStartWithItsErrorAndTheRoleBesideItNeverGoesOn() throws Exception {
        CountDownLatch secondBegan = new CountDownLatch(1);
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new PendingVerticle("first", Future.failedFuture(
                new IllegalStateException("first cannot listen")), null)),
            role(ROLE_DEFAULTS, config -> new BesideVerticle("second", secondBegan)).besideEarlierRoles()));

        Throwable failure = failureOf(supervisor.start(Vertx.vertx()));

        assertEquals("first cannot listen", failure.getMessage());
        // whether the second was deployed before the first failed depends on timing; it never goes on either way
        assertTrue(!events.contains("second went on"), events.toString());
        assertEquals(RoleSupervisor.EXIT_FAILED, supervisor.stop("start failed", true));
    }

    @Test
    void anEarlierRoleWhoseStartFailsInterruptsTheStartOfTheRoleBesideIt() throws Exception {
        Promise<Void> firstStarts = Promise.promise();
        CountDownLatch secondBegan = new CountDownLatch(1);
        RoleSupervisor supervisor = new RoleSupervisor(List.of(
            role(ROLE_DEFAULTS, config -> new PendingVerticle("first", firstStarts.future(), null)),
            role(ROLE_DEFAULTS, config -> new InterruptibleBesideVerticle("second", secondBegan))
                .besideEarlierRoles()));
        Future<Void> started = supervisor.start(Vertx.vertx());
        assertTrue(secondBegan.await(AWAIT_SECONDS, TimeUnit.SECONDS), "the second began");

        firstStarts.fail(new IllegalStateException("first cannot listen"));

        assertEquals("first cannot listen", failureOf(started).getMessage());
        assertTrue(events.contains("second interrupted"), "a start that would never end otherwise: " + events);
        assertEquals(RoleSupervisor.EXIT_FAILED, supervisor.stop("start failed", true));
    }

    private void awaitEvent(String event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (!events.contains(event) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(events.contains(event), "no " + event + " in " + events);
    }

    private static RoleLauncher.Role role(String defaults, Function<JsonObject, io.vertx.core.Deployable> factory) {
        return new RoleLauncher.Role(defaults, null, factory);
    }

    /** How {@code future} failed (a CancellationException is a failure here, not a cancelled wait). */
    private static Throwable failureOf(Future<?> future) throws Exception {
        Throwable failure = future.toCompletionStage().toCompletableFuture().handle((result, error) -> error)
            .get(AWAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(failure, "the future failed");
        return failure;
    }

    /** Starts and stops at once, recording both. */
    private final class QuickVerticle extends VerticleBase {
        private final String name;

        QuickVerticle(String name) {
            this.name = name;
        }

        @Override
        public Future<?> start() {
            events.add(name + " start");
            return Future.succeededFuture();
        }

        @Override
        public Future<?> stop() {
            events.add(name + " stop");
            return Future.succeededFuture();
        }
    }

    /** A start that ends only when interrupted, as a long store recovery ends at its next poll. */
    private class InterruptibleVerticle extends VerticleBase implements InterruptibleRole {
        private final String name;
        private final CountDownLatch starting;
        private final Promise<Void> started = Promise.promise();

        InterruptibleVerticle(String name, CountDownLatch starting) {
            this.name = name;
            this.starting = starting;
        }

        @Override
        public Future<?> start() {
            events.add(name + " start");
            starting.countDown();
            return started.future();
        }

        @Override
        public Future<?> stop() {
            events.add(name + " stop");
            return Future.succeededFuture();
        }

        @Override
        public void interruptStart() {
            context.runOnContext(ignored -> {
                events.add(name + " interrupted");
                started.tryFail(new CancellationException(name + " interrupted"));
            });
        }

        @Override
        public String currentStep() {
            return "waiting to be interrupted";
        }
    }

    /** A start that ends with {@code started}; with {@code serving}, a {@link ServingRole} that serves before. */
    private final class PendingVerticle extends VerticleBase implements ServingRole {
        private final String name;
        private final Future<Void> started;
        private final Future<Void> serving;

        PendingVerticle(String name, Future<Void> started, Future<Void> serving) {
            this.name = name;
            this.started = started;
            this.serving = serving == null ? started : serving;
        }

        @Override
        public Future<?> start() {
            events.add(name + " start");
            return started;
        }

        @Override
        public Future<?> stop() {
            events.add(name + " stop");
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> serving() {
            return serving;
        }
    }

    /** Starts beside the earlier roles: records its start at once, goes on once they serve. */
    private final class BesideVerticle extends VerticleBase implements StartsBeside {
        private final String name;
        private final CountDownLatch began;
        private Future<Void> earlierRolesServing;

        BesideVerticle(String name, CountDownLatch began) {
            this.name = name;
            this.began = began;
        }

        @Override
        public void startBeside(Future<Void> earlierRolesServing) {
            this.earlierRolesServing = earlierRolesServing;
        }

        @Override
        public Future<?> start() {
            events.add(name + " start");
            began.countDown();
            return earlierRolesServing.onSuccess(ready -> events.add(name + " went on"));
        }

        @Override
        public Future<?> stop() {
            events.add(name + " stop");
            return Future.succeededFuture();
        }
    }

    /** Starts beside the earlier roles and ends its start only when interrupted (it never waits for them). */
    private final class InterruptibleBesideVerticle extends InterruptibleVerticle implements StartsBeside {
        InterruptibleBesideVerticle(String name, CountDownLatch began) {
            super(name, began);
        }

        @Override
        public void startBeside(Future<Void> earlierRolesServing) {
        }
    }

    /** A start that never ends and cannot be interrupted. */
    private static final class NeverStartingVerticle extends VerticleBase {
        private final CountDownLatch starting;

        NeverStartingVerticle(CountDownLatch starting) {
            this.starting = starting;
        }

        @Override
        public Future<?> start() {
            starting.countDown();
            return Promise.promise().future();
        }
    }

    /** Starts, then fails its stop. */
    private final class FailingStopVerticle extends VerticleBase {
        private final String name;

        FailingStopVerticle(String name) {
            this.name = name;
        }

        @Override
        public Future<?> start() {
            events.add(name + " start");
            return Future.succeededFuture();
        }

        @Override
        public Future<?> stop() {
            events.add(name + " stop");
            return Future.failedFuture(new IllegalStateException(name + " could not close its store"));
        }
    }
}
