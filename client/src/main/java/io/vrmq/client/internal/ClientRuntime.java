package io.vrmq.client.internal;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.client.ClientOptions;
import io.vrmq.client.route.NameServerClient;
import io.vrmq.client.route.TopicRouteCache;
import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RemotingObserver;
import io.vrmq.remoting.transport.RequestProcessor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What one producer or consumer runs on (RocketMQ's MQClientInstance, one per client object here): the Vert.x
 * context that owns all of the client's state, the remoting client (its connections are opened from that context, so
 * responses, timers and broker requests all arrive on it), the NameServer client and the route cache.
 *
 * <p>Thread confinement: every mutable field of the client lives on {@link #context()}; calls from other threads
 * hop onto it through {@link #onContext}. Nothing blocks there.
 */
public final class ClientRuntime {
    private final Vertx vertx;
    private final Context context;
    private final String clientId;
    private final RemotingJson json = new RemotingJson();
    private final RemotingClient remoting;
    private final NameServerClient nameServers;
    private final TopicRouteCache routes;
    private final List<Long> timers = new ArrayList<>();
    private volatile Consumer<String> consumerIdsChanged = group -> { };
    private volatile RequestProcessor consumerAdmin = ClientRuntime::noConsumerHere;
    private volatile RequestProcessor replies = ClientRuntime::noRequestWaiting;

    public ClientRuntime(Vertx vertx, ClientOptions<?> options) {
        options.validate();
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.clientId = options.clientId();
        ProcessorTable processors = ProcessorTable.builder()
            .register(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (connection, request) -> {
                String group = request.ext("consumerGroup");
                context.runOnContext(ignored -> consumerIdsChanged.accept(group));
                return Future.succeededFuture();
            })
            .register(RequestCode.PUSH_REPLY_MESSAGE_TO_CLIENT,
                (connection, request) -> onContext(() -> replies.process(connection, request)))
            .register((connection, request) -> onContext(() -> consumerAdmin.process(connection, request)),
                RequestCode.RESET_CONSUMER_CLIENT_OFFSET, RequestCode.GET_CONSUMER_RUNNING_INFO,
                RequestCode.CONSUME_MESSAGE_DIRECTLY)
            .build();
        NetClientOptions netOptions = new NetClientOptions()
            .setConnectTimeout((int) options.getRequestTimeoutMs())
            .setTcpNoDelay(true)
            .setReconnectAttempts(0);
        // Without useTLS, a server that requires TLS (enforcing) gets it anyway once it refused a plain connection.
        NetClientOptions tlsOptions = new NetClientOptions(netOptions).setSsl(true).setTrustAll(true)
            .setHostnameVerificationAlgorithm("");
        UnaryOperator<RemotingCommand> signer = options.hasCredentials()
            ? request -> RequestSignature.sign(request, options.getAccessKey(), options.getSecretKey())
            : UnaryOperator.identity();
        this.remoting = new RemotingClient(vertx, options.isUseTLS() ? tlsOptions : netOptions, tlsOptions,
            options.remotingLimits(), processors, RemotingObserver.NONE, signer);
        this.nameServers = new NameServerClient(remoting, json, options.namesrvAddrList(),
            options.getRequestTimeoutMs());
        this.routes = new TopicRouteCache(nameServers);
    }

    public Vertx vertx() {
        return vertx;
    }

    public Context context() {
        return context;
    }

    public String clientId() {
        return clientId;
    }

    public RemotingJson json() {
        return json;
    }

    public RemotingClient remoting() {
        return remoting;
    }

    public TopicRouteCache routes() {
        return routes;
    }

    /** The consumer's hook for NOTIFY_CONSUMER_IDS_CHANGED (40); runs on the context. */
    public void onConsumerIdsChanged(Consumer<String> handler) {
        this.consumerIdsChanged = handler;
    }

    /**
     * The push consumer's answers to RESET_CONSUMER_CLIENT_OFFSET (220), GET_CONSUMER_RUNNING_INFO (307) and
     * CONSUME_MESSAGE_DIRECTLY (309); called on the context. Without one (producers, pull consumers) 220 is ignored
     * and the others are refused as the official client refuses a group it does not run.
     */
    public void onConsumerAdminRequest(RequestProcessor processor) {
        this.consumerAdmin = processor;
    }

    /** The producer's answer to PUSH_REPLY_MESSAGE_TO_CLIENT (326), a reply to one of its requests; on the context. */
    public void onReplyMessage(RequestProcessor processor) {
        this.replies = processor;
    }

    /** Runs {@code work} on the client's context and hands its outcome back to the caller. */
    public <T> Future<T> onContext(Supplier<Future<T>> work) {
        if (Vertx.currentContext() == context) {
            return run(work);
        }
        Promise<T> outcome = Promise.promise();
        context.runOnContext(ignored -> run(work).onComplete(outcome));
        return outcome.future();
    }

    /** A periodic task on the context, cancelled by {@link #close()}. Call on the context. */
    public void periodic(long initialDelayMs, long intervalMs, Runnable task) {
        timers.add(vertx.setPeriodic(initialDelayMs, intervalMs, id -> task.run()));
    }

    /** Fires once after {@code delayMs} on the context (a timer set from the context runs on it). */
    public Future<Void> delay(long delayMs) {
        Promise<Void> fired = Promise.promise();
        vertx.setTimer(Math.max(1, delayMs), id -> fired.complete());
        return fired.future();
    }

    /** Cancels the periodic tasks and closes every connection. Call on the context. */
    public Future<Void> close() {
        timers.forEach(vertx::cancelTimer);
        timers.clear();
        return remoting.close();
    }

    /** Like the official client: a reply nobody waits for is logged there and answered SUCCESS. */
    private static Future<RemotingCommand> noRequestWaiting(RemotingConnection connection, RemotingCommand request) {
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    private static Future<RemotingCommand> noConsumerHere(RemotingConnection connection, RemotingCommand request) {
        if (request.isOneway()) {
            return Future.succeededFuture();
        }
        return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
            String.format("The Consumer Group <%s> not exist in this consumer", request.ext("consumerGroup"))));
    }

    private static <T> Future<T> run(Supplier<Future<T>> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }
}
