package io.vrmq.broker.longpoll;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.store.TagFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

@ExtendWith(VertxExtension.class)
class PullHoldServiceTest {
    private static final int HELD = 100;
    private static final long LONG_SUSPEND_MS = 60_000;

    /** A pull woken by a message releases its expiry timer at once, so it is not kept alive until its deadline. */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aWokenPullReleasesItsExpiryTimer(Vertx vertx, VertxTestContext test) {
        Context context = vertx.getOrCreateContext();
        context.runOnContext(ignored -> {
            PullHoldService holds = new PullHoldService(vertx, context, 10_000);
            AtomicInteger woken = new AtomicInteger();
            for (int i = 0; i < HELD; i++) {
                holds.hold(new HeldPull("T", 0, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                    () -> {
                        if (woken.incrementAndGet() == HELD) {
                            test.verify(() -> {
                                assertEquals(0, holds.heldCount());
                                assertEquals(0, holds.armedExpiryTimers());
                            });
                            test.completeNow();
                        }
                    }));
            }
            test.verify(() -> assertEquals(HELD, holds.armedExpiryTimers()));
            holds.onDispatched("T", 0, 6);
        });
    }

    /** A message at or below the held offset wakes nothing: the pull would find nothing new. */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aMessageBelowTheHeldOffsetWakesNothing(Vertx vertx, VertxTestContext test) {
        Context context = vertx.getOrCreateContext();
        context.runOnContext(ignored -> {
            PullHoldService holds = new PullHoldService(vertx, context, 10_000);
            holds.hold(new HeldPull("T", 0, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                () -> test.failNow("woken by an older message")));
            holds.onDispatched("T", 0, 5);
            holds.onDispatched("T", 1, 9);
            context.runOnContext(later -> {
                test.verify(() -> assertEquals(1, holds.heldCount()));
                test.completeNow();
            });
        });
    }

    /**
     * readHeldPullsOnDispatcher: a round's end on the dispatcher thread runs the ready pulls' off-loop wake right
     * there (one read, one hop to the answer), and releases their timers.
     */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void onTheDispatcherARoundsEndWakesTheReadyPullsOnTheDispatcherThread(Vertx vertx, VertxTestContext test) {
        Context context = vertx.getOrCreateContext();
        PullHoldService holds = new PullHoldService(vertx, context, 10_000, true, null);
        Thread dispatcher = new Thread(() -> {
            holds.onDispatched("T", 0, 6);
            holds.onRoundDispatched();
        }, "test-dispatcher");
        context.runOnContext(ignored -> {
            holds.hold(new HeldPull("T", 0, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                () -> test.failNow("woken on the loop"), () -> test.verify(() -> {
                    assertSame(dispatcher, Thread.currentThread());
                    assertEquals(1, holds.heldCount(), "queue 1's pull is still held");
                    assertEquals(1, holds.armedExpiryTimers(), "queue 0's pull released its timer");
                    test.completeNow();
                })));
            holds.hold(new HeldPull("T", 1, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                () -> test.failNow("another queue's pull woken")));
            dispatcher.start();
        });
    }

    /**
     * A message dispatched between a pull's read (which found nothing) and its hold found no pull to wake: the hold
     * sees the queue's max offset past the pull's and wakes it at once, instead of leaving it to its timeout.
     */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void aPullHeldAfterItsMessageWasDispatchedIsWokenAtOnce(Vertx vertx, VertxTestContext test) {
        Context context = vertx.getOrCreateContext();
        PullHoldService holds = new PullHoldService(vertx, context, 10_000, true,
            (topic, queueId) -> queueId == 0 ? 6L : 0L);
        context.runOnContext(ignored -> {
            holds.hold(new HeldPull("T", 1, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                () -> test.failNow("a queue without new messages woken")));
            holds.hold(new HeldPull("T", 0, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                () -> test.verify(() -> {
                    assertEquals(1, holds.heldCount());
                    assertEquals(1, holds.armedExpiryTimers());
                    test.completeNow();
                })));
        });
    }

    /** At stop every held pull answers at once, their timers go, and a pull arriving later is not held. */
    @Test
    @Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
    void releaseAllAnswersEveryHeldPullNowAndHoldsNoMore(Vertx vertx, VertxTestContext test) {
        Context context = vertx.getOrCreateContext();
        context.runOnContext(ignored -> {
            PullHoldService holds = new PullHoldService(vertx, context, 10_000);
            AtomicInteger woken = new AtomicInteger();
            for (int i = 0; i < HELD; i++) {
                holds.hold(new HeldPull("T", i % 3, 5, TagFilter.ALL, System.currentTimeMillis() + LONG_SUSPEND_MS,
                    woken::incrementAndGet));
            }

            holds.releaseAll();

            test.verify(() -> {
                assertEquals(HELD, woken.get());
                assertEquals(0, holds.heldCount());
                assertEquals(0, holds.armedExpiryTimers());
                assertFalse(holds.hold(new HeldPull("T", 0, 5, TagFilter.ALL,
                    System.currentTimeMillis() + LONG_SUSPEND_MS, () -> test.failNow("held after the release"))));
            });
            test.completeNow();
        });
    }
}
