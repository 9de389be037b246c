package io.vrmq.broker;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.broker.pop.PopServices;
import io.vrmq.broker.schedule.DeliveryServices;
import io.vrmq.broker.transaction.TransactionCheckService;
import io.vrmq.store.DispatchListener;

import java.util.Map;

/**
 * What only a master runs: delivery of delayed and timer messages, the checks of open transactions (a slave gets
 * both outcomes by replication), and POP (served, and revived, by the master only; a slave has the revive log). Started once on a classic master; in controller mode started and stopped as the
 * broker becomes master or slave. Confined to the broker's context.
 */
public final class MasterServices {
    private final Vertx vertx;
    private final BrokerContext broker;
    private final DispatchListener brokerListener;
    private final PopServices pop;
    private DeliveryServices deliveries;
    private TransactionCheckService transactionChecks;

    /** @param brokerListener the broker's own dispatch listener (wakes held pulls), kept first */
    public MasterServices(Vertx vertx, BrokerContext broker, DispatchListener brokerListener, PopServices pop) {
        this.vertx = vertx;
        this.broker = broker;
        this.brokerListener = brokerListener;
        this.pop = pop;
    }

    public boolean isRunning() {
        return deliveries != null;
    }

    /** Starts them unless they run. */
    public void start() {
        if (deliveries == null) {
            deliveries = DeliveryServices.start(vertx, broker, brokerListener);
            transactionChecks = TransactionCheckService.start(vertx, broker);
            pop.activate();
        }
    }

    /** Stops them (each saves its progress) unless they are stopped. */
    public Future<Void> stop() {
        if (deliveries == null) {
            return Future.succeededFuture();
        }
        DeliveryServices stoppingDeliveries = deliveries;
        TransactionCheckService stoppingChecks = transactionChecks;
        deliveries = null;
        transactionChecks = null;
        // No more checks first: a producer asked now might answer a broker that no longer takes its outcome.
        return stoppingChecks.stop().eventually(pop::deactivate).eventually(stoppingDeliveries::stop);
    }

    /** Per delay level, the next schedule-queue offset to deliver, while delivery runs; null when it does not. */
    public Map<Integer, Long> delayOffsets() {
        return deliveries == null ? null : deliveries.schedule().offsets();
    }
}
