package io.vrmq.client.producer;

import io.vertx.core.Future;
import io.vrmq.client.ClientException;
import io.vrmq.client.Message;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.MessageQueueSelector;
import io.vrmq.client.ProducerOptions;
import io.vrmq.client.SendResult;
import io.vrmq.client.SendStatus;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.route.TopicRoute;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;

/**
 * Sends prepared messages to brokers: picks the queue, sends SEND_MESSAGE_V2 (310) or SEND_BATCH_MESSAGE (320) to
 * the queue's master, records the latency in the {@link BrokerFaultTable}, and retries a failed send on another
 * broker (retryTimesWhenSendFailed more attempts, all within sendTimeoutMs). Confined to the producer's context.
 */
public final class MessageSender {
    /** The codes the official producer retries on; any other refusal is final. */
    static final Set<Integer> RETRY_CODES = Set.of(ResponseCode.TOPIC_NOT_EXIST, ResponseCode.SERVICE_NOT_AVAILABLE,
        ResponseCode.SYSTEM_ERROR, ResponseCode.SYSTEM_BUSY, ResponseCode.NO_PERMISSION, ResponseCode.NO_BUYER_ID,
        ResponseCode.NOT_IN_CURRENT_UNIT, ResponseCode.GO_AWAY);
    private static final Logger log = LoggerFactory.getLogger(MessageSender.class);

    private final ClientRuntime runtime;
    private final ProducerOptions options;
    private final BrokerFaultTable faults;
    private final SendQueueChooser chooser;
    private SendObserver observer = SendObserver.NONE;

    public MessageSender(ClientRuntime runtime, ProducerOptions options, BrokerFaultTable faults) {
        this.runtime = runtime;
        this.options = options;
        this.faults = faults;
        this.chooser = new SendQueueChooser(faults, options.isSendLatencyFaultEnable());
    }

    /** Told of every answered send attempt from now on (the trace hook); none by default. Call before sending. */
    public void observe(SendObserver sendObserver) {
        this.observer = sendObserver;
    }

    /** Round robin with retries on other brokers. */
    public Future<SendResult> send(PreparedSend send) {
        long deadlineMs = System.currentTimeMillis() + options.getSendTimeoutMs();
        return attempt(send, 1 + options.getRetryTimesWhenSendFailed(), null, deadlineMs, null);
    }

    /** To the queue the selector picks from the topic's writable queues; one attempt, so order holds. */
    public Future<SendResult> send(PreparedSend send, Message message, MessageQueueSelector selector, Object arg) {
        return sendRoute(send.topic()).compose(route -> {
            MessageQueue queue = selector.select(route.writeQueues(), message, arg);
            if (queue == null || !route.writeQueues().contains(queue)) {
                return Future.failedFuture(new ClientException("the selector chose " + queue + ", not a writable"
                    + " queue of " + send.topic()));
            }
            return sendTo(send, route, queue, options.getSendTimeoutMs());
        });
    }

    /** To one given queue; one attempt. */
    public Future<SendResult> send(PreparedSend send, MessageQueue queue) {
        return sendRoute(send.topic()).compose(route -> sendTo(send, route, queue, options.getSendTimeoutMs()));
    }

    /** Fire and forget: completes once written to the socket. */
    public Future<Void> sendOneway(PreparedSend send) {
        return sendRoute(send.topic()).compose(route -> {
            MessageQueue queue = chooser.choose(send.topic(), route.writeQueues(), null);
            String address = route.masterAddrs().get(queue.brokerName());
            return runtime.remoting().invokeOneway(address, request(send, queue));
        });
    }

    private Future<SendResult> attempt(PreparedSend send, int attemptsLeft, String lastBrokerName, long deadlineMs,
                                       Throwable lastError) {
        long leftMs = deadlineMs - System.currentTimeMillis();
        if (attemptsLeft == 0 || leftMs <= 0) {
            String why = attemptsLeft == 0 ? "all attempts failed" : "sendTimeoutMs " + options.getSendTimeoutMs()
                + " passed";
            return Future.failedFuture(lastError instanceof ClientException ? lastError
                : new ClientException("send to " + send.topic() + " failed, " + why + ": " + lastError, lastError));
        }
        return sendRoute(send.topic()).compose(route -> {
            MessageQueue queue = chooser.choose(send.topic(), route.writeQueues(), lastBrokerName);
            return sendTo(send, route, queue, leftMs).recover(error -> {
                if (!isRetryable(error)) {
                    return Future.failedFuture(error);
                }
                log.debug("send of {} to {} failed, {} attempts left: {}", send.msgId(), queue, attemptsLeft - 1,
                    error.toString());
                return attempt(send, attemptsLeft - 1, queue.brokerName(), deadlineMs, error);
            });
        });
    }

    private Future<TopicRoute> sendRoute(String topic) {
        return runtime.routes().sendRoute(topic, options.getDefaultTopicQueueNums()).compose(route ->
            route.isWritable() ? Future.succeededFuture(route)
                : Future.failedFuture(new ClientException(ResponseCode.NO_PERMISSION, "topic " + topic
                + " has no writable queue on a broker with a master")));
    }

    private Future<SendResult> sendTo(PreparedSend send, TopicRoute route, MessageQueue queue, long timeoutMs) {
        String address = route.masterAddrs().get(queue.brokerName());
        if (address == null) {
            return Future.failedFuture(new ClientException(ResponseCode.SYSTEM_ERROR, "broker " + queue.brokerName()
                + " has no master address"));
        }
        long startMs = System.currentTimeMillis();
        return runtime.remoting().invoke(address, request(send, queue), timeoutMs)
            .transform(outcome -> {
                long latencyMs = System.currentTimeMillis() - startMs;
                if (outcome.failed()) {
                    faults.record(queue.brokerName(), latencyMs, true);
                    return Future.failedFuture(new ClientException("send to " + address + " failed: "
                        + outcome.cause(), outcome.cause()));
                }
                RemotingCommand response = outcome.result();
                SendStatus status = statusOf(response.code());
                faults.record(queue.brokerName(), latencyMs, status == null);
                if (status == null) {
                    return Future.failedFuture(new ClientException(response.code(), "broker " + address
                        + " refused the send to " + queue + ": code " + response.code() + ", " + response.remark()));
                }
                SendResult result = new SendResult(status, send.msgId(), response.ext("msgId"), queue,
                    Long.parseLong(response.ext("queueOffset")));
                notify(send, address, startMs, response, result);
                return Future.succeededFuture(result);
            });
    }

    /** An observer's failure is its own: it never fails the send. */
    private void notify(PreparedSend send, String address, long startMs, RemotingCommand response,
                        SendResult result) {
        try {
            observer.answered(send, address, startMs, response, result);
        } catch (RuntimeException e) {
            log.warn("send observer failed on {}", send.msgId(), e);
        }
    }

    private RemotingCommand request(PreparedSend send, MessageQueue queue) {
        int code = send.isBatch() ? RequestCode.SEND_BATCH_MESSAGE
            : RequestReply.REPLY_MESSAGE_FLAG.equals(send.properties().get(RequestReply.MSG_TYPE))
            ? RequestCode.SEND_REPLY_MESSAGE_V2 : RequestCode.SEND_MESSAGE_V2;
        return RemotingCommand.request(code, SendRequestHeader.of(options.getProducerGroup(), send, queue,
            options.getDefaultTopicQueueNums(), System.currentTimeMillis()), send.body());
    }

    private static SendStatus statusOf(int responseCode) {
        return switch (responseCode) {
            case ResponseCode.SUCCESS -> SendStatus.SEND_OK;
            case ResponseCode.FLUSH_DISK_TIMEOUT -> SendStatus.FLUSH_DISK_TIMEOUT;
            case ResponseCode.FLUSH_SLAVE_TIMEOUT -> SendStatus.FLUSH_SLAVE_TIMEOUT;
            case ResponseCode.SLAVE_NOT_AVAILABLE -> SendStatus.SLAVE_NOT_AVAILABLE;
            default -> null;
        };
    }

    private static boolean isRetryable(Throwable error) {
        return error instanceof ClientException refused
            && (refused.responseCode() == ClientException.NO_RESPONSE_CODE
            || RETRY_CODES.contains(refused.responseCode()));
    }

    /** The master addresses of the topics this producer sent to, for heartbeats. */
    public List<String> masterAddrs() {
        return List.copyOf(runtime.routes().brokerAddrs(runtime.routes().topics(), true));
    }
}
