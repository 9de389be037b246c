package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vrmq.grpc.proto.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Auto-renew of the invisible time of messages a push consumer received with {@code auto_renew} (Apache's proxy
 * does the same; the SDKs count on it and send no invisible time): every renewSchedulePeriodMillis, each such
 * message whose invisible time ends within renewAheadTimeMillis gets defaultInvisibleTimeMills more, so a slow
 * listener does not see its message delivered twice. Renewal stops when the message is acked, changed or sent to the
 * DLQ, when its client's Telemetry stream is gone (the message then comes back at its invisible time, to another
 * client), and after renewMaxTimeMillis (it then comes back as a retry); such a message is kept until its handle
 * expires, for a late ack. Each renewal makes a new handle while the
 * client keeps the first: {@link #take} swaps it for the latest one, waiting for a renewal under way so that the ack
 * does not race it.
 * <p>
 * Confined to the endpoint's event loop (the timer, the RPC handlers and the link's replies all run there).
 */
final class HandleRenewals {
    private static final Logger log = LoggerFactory.getLogger(HandleRenewals.class);

    /** One message being renewed; {@code latest} completes with its newest handle. */
    private static final class Renewal {
        final String clientId;
        final String group;
        final String topic;
        final long firstReceivedMs;
        Future<String> latest;
        boolean isRenewing;
        /** Not renewed again; kept until its handle expires so that a late ack still finds the latest handle. */
        boolean isAbandoned;

        Renewal(String clientId, String group, String topic, String handle, long firstReceivedMs) {
            this.clientId = clientId;
            this.group = group;
            this.topic = topic;
            this.firstReceivedMs = firstReceivedMs;
            this.latest = Future.succeededFuture(handle);
        }
    }

    private final Vertx vertx;
    private final GrpcConfig config;
    private final GrpcSessions sessions;
    private final PopCalls pop;
    private final Map<String, Renewal> byFirstHandle = new ConcurrentHashMap<>();
    private long timerId = -1;

    HandleRenewals(Vertx vertx, GrpcConfig config, GrpcSessions sessions, PopCalls pop) {
        this.vertx = vertx;
        this.config = config;
        this.sessions = sessions;
        this.pop = pop;
    }

    void start() {
        if (config.enableProxyAutoRenew()) {
            timerId = vertx.setPeriodic(config.renewSchedulePeriodMillis(), id -> renewDue(System.currentTimeMillis()));
        }
    }

    void stop() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        byFirstHandle.clear();
    }

    /** Messages just handed out by an auto_renew receive. */
    void track(String clientId, String group, List<Message> messages, long nowMs) {
        if (!config.enableProxyAutoRenew()) {
            return;
        }
        for (Message message : messages) {
            String handle = message.getSystemProperties().getReceiptHandle();
            byFirstHandle.put(handle, new Renewal(clientId, group, message.getTopic().getName(), handle, nowMs));
        }
    }

    /**
     * The client is done with the message of {@code handle} (ack, change, DLQ): no more renewals; completes with the
     * handle to use, the latest one (after a renewal under way) or {@code handle} itself when it was not renewed.
     */
    Future<String> take(String handle) {
        Renewal renewal = byFirstHandle.remove(handle);
        return renewal == null ? Future.succeededFuture(handle) : renewal.latest;
    }

    /** The client went away: its messages are not renewed again. */
    void forget(String clientId) {
        byFirstHandle.values().removeIf(renewal -> renewal.clientId.equals(clientId));
    }

    int size() {
        return byFirstHandle.size();
    }

    private void renewDue(long nowMs) {
        for (Map.Entry<String, Renewal> entry : byFirstHandle.entrySet()) {
            Renewal renewal = entry.getValue();
            if (renewal.isRenewing || !renewal.latest.succeeded()) {
                continue;
            }
            ReceiptHandle handle = ReceiptHandle.parse(renewal.latest.result());
            if (handle.isExpired(nowMs)) {
                byFirstHandle.remove(entry.getKey(), renewal);
                continue;
            }
            if (renewal.isAbandoned) {
                continue;
            }
            GrpcSessions.Session session = sessions.get(renewal.clientId);
            if (session == null || session.telemetry() == null
                || nowMs - renewal.firstReceivedMs > config.renewMaxTimeMillis()) {
                renewal.isAbandoned = true;
                continue;
            }
            if (handle.receipt().reviveTimeMs() - nowMs <= config.renewAheadTimeMillis()) {
                renew(renewal, handle);
            }
        }
    }

    private void renew(Renewal renewal, ReceiptHandle handle) {
        renewal.isRenewing = true;
        Promise<String> renewed = Promise.promise();
        String previous = renewal.latest.result();
        renewal.latest = renewed.future();
        pop.change(renewal.group, renewal.topic, handle, config.defaultInvisibleTimeMills(), false)
            .onComplete(outcome -> {
                renewal.isRenewing = false;
                if (outcome.succeeded() && outcome.result().handle() != null) {
                    renewed.complete(outcome.result().handle());
                } else {
                    // Left as it was: the message comes back at its invisible time.
                    log.debug("renewal of a message of {} for {} failed: {}", renewal.topic, renewal.clientId,
                        outcome.succeeded() ? outcome.result().status() : outcome.cause().toString());
                    renewal.isAbandoned = true;
                    renewed.complete(previous);
                }
            });
    }
}
