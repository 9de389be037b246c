package io.vrmq.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.internal.Heartbeats;
import io.vrmq.client.message.MessageIdGenerator;
import io.vrmq.client.producer.BrokerFaultTable;
import io.vrmq.client.producer.MessageSender;
import io.vrmq.client.producer.RequestReply;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.client.producer.PreparedSend;
import io.vrmq.client.producer.SendPreparation;
import io.vrmq.client.trace.ProducerTrace;
import io.vrmq.client.trace.TraceDispatcher;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.body.ProducerData;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A producer: {@code send} returns a {@code Future<SendResult>}; {@link #sendSync} is a blocking facade for code on its
 * own threads. Routes come from the NameServers (polled every pollNameServerInterval and kept while they are down);
 * heartbeats go to the masters every heartbeatBrokerInterval.
 *
 * <pre>{@code
 * VrmqProducer producer = new VrmqProducer(vertx, new ProducerOptions()
 *     .setNamesrvAddr("127.0.0.1:9876").setProducerGroup("PG"));
 * producer.start()
 *     .compose(started -> producer.send(Message.of("T", "TagA", bytes).withKeys("order-1")))
 *     .onSuccess(result -> log.info("stored as {}", result.msgId()));
 * }</pre>
 *
 * Thread-safe: all work runs on the Vert.x context current when the producer was created (an event loop).
 */
public final class VrmqProducer {
    private final ProducerOptions options;
    private final ClientRuntime runtime;
    private final SendPreparation preparation;
    private final MessageSender sender;
    private final Heartbeats heartbeats;
    private final RequestReply requests;
    /** null when enableMsgTrace is off. */
    private final TraceDispatcher trace;

    public VrmqProducer(Vertx vertx, ProducerOptions options) {
        this.options = options;
        this.runtime = new ClientRuntime(vertx, options);
        this.preparation = new SendPreparation(options, MessageIdGenerator.forThisProcess());
        this.sender = new MessageSender(runtime, options, new BrokerFaultTable(System::currentTimeMillis));
        this.heartbeats = new Heartbeats(runtime);
        this.requests = new RequestReply(vertx, options.getMaxBodyBytes());
        this.trace = options.isEnableMsgTrace()
            ? TraceDispatcher.create(runtime, options, options.getProducerGroup(), "PRODUCE") : null;
        if (trace != null) {
            sender.observe(new ProducerTrace(trace, options.getProducerGroup()));
        }
        runtime.onReplyMessage((connection, push) -> {
            requests.onReply(push);
            return Future.succeededFuture(RemotingCommand.success(push, null));
        });
    }

    /** Starts the route poll and the heartbeat; sends before start work too but are not heartbeated. */
    public Future<Void> start() {
        return runtime.onContext(() -> {
            runtime.periodic(options.getPollNameServerIntervalMs(), options.getPollNameServerIntervalMs(),
                runtime.routes()::refreshAll);
            runtime.periodic(1_000, options.getHeartbeatBrokerIntervalMs(), this::heartbeat);
            if (trace != null) {
                trace.start();
            }
            return Future.succeededFuture();
        });
    }

    public Future<SendResult> send(Message message) {
        return prepared(() -> preparation.single(message)).compose(send -> runtime.onContext(() -> sender.send(send)));
    }

    /** To the queue {@code selector} picks for {@code arg}, e.g. {@link MessageQueueSelector#byHash()} by order id. */
    public Future<SendResult> send(Message message, MessageQueueSelector selector, Object arg) {
        return prepared(() -> preparation.single(message))
            .compose(send -> runtime.onContext(() -> sender.send(send, message, selector, arg)));
    }

    public Future<SendResult> send(Message message, MessageQueue queue) {
        return prepared(() -> preparation.single(message))
            .compose(send -> runtime.onContext(() -> sender.send(send, queue)));
    }

    /**
     * RocketMQ's request-reply: sends {@code message} as a request and completes with the reply a consumer sent with
     * {@link #replyTo}, or fails after {@code timeoutMs}. The first request to a topic looks its route up and
     * heartbeats its brokers first, so the broker can push the reply to this client.
     */
    public Future<ReceivedMessage> request(Message message, long timeoutMs) {
        return request(message, timeoutMs, this::send);
    }

    /** A request to the queue {@code selector} picks for {@code arg}. */
    public Future<ReceivedMessage> request(Message message, MessageQueueSelector selector, Object arg,
                                           long timeoutMs) {
        return request(message, timeoutMs, request -> send(request, selector, arg));
    }

    private Future<ReceivedMessage> request(Message message, long timeoutMs,
                                            Function<Message, Future<SendResult>> sending) {
        return runtime.onContext(() -> {
            RequestReply.Pending pending = requests.open(message, runtime.clientId(), timeoutMs);
            return runtime.routes().sendRoute(message.topic(), options.getDefaultTopicQueueNums())
                .compose(route -> heartbeats.send(producerHeartbeat(), route.masterAddrs().values()))
                .compose(beaten -> sending.apply(pending.message()))
                .onFailure(error -> requests.abandon(pending.correlationId(), error))
                .compose(sent -> pending.reply());
        });
    }

    /** The reply a consumer sends (with {@link #send(Message)}) for a request it received. */
    public static Message replyTo(ReceivedMessage request, byte[] body) {
        return RequestReply.replyTo(request, body);
    }

    /** Completes once the request is written; no result, no retry. */
    public Future<Void> sendOneway(Message message) {
        return prepared(() -> preparation.single(message))
            .compose(send -> runtime.onContext(() -> sender.sendOneway(send)));
    }

    /** One SEND_BATCH_MESSAGE: one topic, no delay; the messages land on one queue with consecutive offsets. */
    public Future<SendResult> sendBatch(List<Message> messages) {
        return prepared(() -> preparation.batch(messages)).compose(send -> runtime.onContext(() -> sender.send(send)));
    }

    /**
     * Blocking {@link #send(Message)} for callers on their own threads.
     *
     * @throws IllegalStateException on a Vert.x event loop, where blocking is forbidden
     * @throws ClientException       when the send failed
     */
    public SendResult sendSync(Message message) throws InterruptedException {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("sendSync called on an event loop thread: use send(message)");
        }
        long waitMs = options.getSendTimeoutMs() + options.getRequestTimeoutMs();
        try {
            return send(message).toCompletionStage().toCompletableFuture().get(waitMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ClientException refused ? refused
                : new ClientException("send failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new ClientException("send got no outcome within " + waitMs + " ms", e);
        }
    }

    /** The writable queues of a topic (looked up if not cached), e.g. for a selector's arithmetic. */
    public Future<List<MessageQueue>> writeQueues(String topic) {
        return runtime.onContext(() -> runtime.routes().sendRoute(topic, options.getDefaultTopicQueueNums())
            .map(route -> route.writeQueues()));
    }

    /** Sends the trace records still queued (at most 5 s), unregisters from the brokers, closes the connections. */
    public Future<Void> close() {
        return runtime.onContext(() -> (trace == null ? Future.<Void>succeededFuture() : trace.drain())
            .compose(drained -> heartbeats.unregister(sender.masterAddrs(), options.getProducerGroup(), null))
            .compose(unregistered -> runtime.close()));
    }

    /**
     * Trace records dropped so far because traceQueueCapacity records were waiting (0 with trace off), for
     * monitoring.
     */
    public Future<Long> traceDroppedCount() {
        return runtime.onContext(() -> Future.succeededFuture(trace == null ? 0L : trace.droppedCount()));
    }

    public String clientId() {
        return runtime.clientId();
    }

    private void heartbeat() {
        heartbeats.send(producerHeartbeat(), sender.masterAddrs());
    }

    private HeartbeatData producerHeartbeat() {
        return new HeartbeatData(runtime.clientId(), Set.of(new ProducerData(options.getProducerGroup())), Set.of(), 0,
            false);
    }

    private static Future<PreparedSend> prepared(Supplier<PreparedSend> preparation) {
        try {
            return Future.succeededFuture(preparation.get());
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(new ClientException(e.getMessage()));
        }
    }
}
