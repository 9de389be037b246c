package io.vrmq.broker.schedule;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.timer.TimerMessageService;
import io.vrmq.store.DispatchListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wiring for the two services that deliver held messages, delayed ({@link ScheduleMessageService}) and timer
 * ({@link TimerMessageService}): builds them, starts them on the caller's context, chains them into the store's
 * dispatch listener after the broker's own listener, and stops them. Called by the broker verticle only.
 */
public final class DeliveryServices {
    private static final Logger log = LoggerFactory.getLogger(DeliveryServices.class);

    private final ScheduleMessageService schedule;
    private final TimerMessageService timer;
    private final Future<Void> started;
    private final BrokerContext broker;
    private final DispatchListener brokerListener;

    private DeliveryServices(ScheduleMessageService schedule, TimerMessageService timer, Future<Void> started,
                             BrokerContext broker, DispatchListener brokerListener) {
        this.schedule = schedule;
        this.timer = timer;
        this.started = started;
        this.broker = broker;
        this.brokerListener = brokerListener;
    }

    /**
     * Starts both services on the calling context. {@code brokerListener} is what the store's dispatch listener did
     * before (wake held pulls); it keeps running first. A start failure (an unreadable progress file) is logged:
     * the broker serves on without delivering held messages rather than stop with them on disk.
     */
    public static DeliveryServices start(Vertx vertx, BrokerContext broker, DispatchListener brokerListener) {
        String root = broker.config().storePathRootDir();
        ScheduleMessageService schedule = ScheduleMessageService.create(vertx, broker.store(), broker.delayLevels(),
            broker.json(), root);
        TimerMessageService timer = TimerMessageService.create(vertx, broker.store(), broker.json(), root,
            broker.features().timerFlow());
        broker.store().store().setDispatchListener(new DispatchListener() {
            @Override
            public void onDispatched(String topic, int queueId, long maxOffset, long tagsCode, long storeTime) {
                brokerListener.onDispatched(topic, queueId, maxOffset, tagsCode, storeTime);
                schedule.onDispatched(topic, queueId);
                timer.onDispatched(topic, queueId);
            }

            @Override
            public void onRoundDispatched() {
                brokerListener.onRoundDispatched();
            }
        });
        Future<Void> started = Future.all(schedule.start(), timer.start()).<Void>mapEmpty()
            .onFailure(error -> log.error("delayed or timer message delivery did not start", error));
        return new DeliveryServices(schedule, timer, started, broker, brokerListener);
    }

    /**
     * Stops both after their start finished; each writes its final progress. The store's dispatch listener is the
     * broker's own again (a master that becomes a slave in controller mode delivers nothing).
     */
    public Future<Void> stop() {
        broker.store().store().setDispatchListener(brokerListener);
        return started.transform(ignored -> Future.join(schedule.stop(), timer.stop()).mapEmpty());
    }

    public ScheduleMessageService schedule() {
        return schedule;
    }

    public TimerMessageService timer() {
        return timer;
    }
}
