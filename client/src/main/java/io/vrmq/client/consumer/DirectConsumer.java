package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ConsumeConcurrentlyStatus;
import io.vrmq.client.ConsumeOrderlyStatus;
import io.vrmq.client.MessageListenerConcurrently;
import io.vrmq.client.MessageListenerOrderly;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * CONSUME_MESSAGE_DIRECTLY (309, mqadmin consumeMessage / queryMsgById -d): hands one message to the listener outside
 * any process queue, commits nothing, and reports what the listener said (RocketMQ's consumeMessageDirectly of
 * ConsumeMessageConcurrentlyService and ConsumeMessageOrderlyService). Confined to the consumer's context.
 */
public final class DirectConsumer {
    private final MessageListenerConcurrently concurrentListener;
    private final MessageListenerOrderly orderlyListener;
    private final LongSupplier clockMs;

    private DirectConsumer(MessageListenerConcurrently concurrentListener, MessageListenerOrderly orderlyListener,
                           LongSupplier clockMs) {
        this.concurrentListener = concurrentListener;
        this.orderlyListener = orderlyListener;
        this.clockMs = clockMs;
    }

    public static DirectConsumer concurrently(MessageListenerConcurrently listener, LongSupplier clockMs) {
        return new DirectConsumer(listener, null, clockMs);
    }

    public static DirectConsumer orderly(MessageListenerOrderly listener, LongSupplier clockMs) {
        return new DirectConsumer(null, listener, clockMs);
    }

    /** Never fails: a thrown or failed listener becomes CR_THROW_EXCEPTION with the stack trace as remark. */
    public Future<Result> consume(ReceivedMessage message) {
        long startMs = clockMs.getAsLong();
        boolean isOrderly = orderlyListener != null;
        MessageQueue queue = message.messageQueue();
        Future<CMResult> outcome;
        try {
            outcome = isOrderly
                ? nonNull(orderlyListener.consume(List.of(message), queue)).map(DirectConsumer::orderlyResult)
                : nonNull(concurrentListener.consume(List.of(message), queue)).map(DirectConsumer::concurrentResult);
        } catch (RuntimeException e) {
            outcome = Future.failedFuture(e);
        }
        return outcome
            .map(result -> new Result(isOrderly, true, result, null, clockMs.getAsLong() - startMs))
            .otherwise(error -> new Result(isOrderly, true, error instanceof NullResult ? CMResult.CR_RETURN_NULL
                : CMResult.CR_THROW_EXCEPTION, error instanceof NullResult ? null : stackTrace(error),
                clockMs.getAsLong() - startMs));
    }

    private static <T> Future<T> nonNull(Future<T> result) {
        if (result == null) {
            return Future.failedFuture(new NullResult());
        }
        return result.compose(status -> status == null ? Future.failedFuture(new NullResult())
            : Future.succeededFuture(status));
    }

    private static CMResult concurrentResult(ConsumeConcurrentlyStatus status) {
        return status == ConsumeConcurrentlyStatus.CONSUME_SUCCESS ? CMResult.CR_SUCCESS : CMResult.CR_LATER;
    }

    private static CMResult orderlyResult(ConsumeOrderlyStatus status) {
        return status == ConsumeOrderlyStatus.SUCCESS ? CMResult.CR_SUCCESS : CMResult.CR_LATER;
    }

    private static String stackTrace(Throwable error) {
        StringWriter text = new StringWriter();
        error.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    /** RocketMQ's CMResult. */
    public enum CMResult {
        CR_SUCCESS,
        CR_LATER,
        CR_ROLLBACK,
        CR_COMMIT,
        CR_THROW_EXCEPTION,
        CR_RETURN_NULL
    }

    /** RocketMQ's ConsumeMessageDirectlyResult; "spentTimeMills" is the official spelling. */
    public record Result(boolean order, boolean autoCommit, CMResult consumeResult, String remark,
                         long spentTimeMills) {
    }

    /** The listener answered null: not an error of the listener, the official client's CR_RETURN_NULL. */
    private static final class NullResult extends RuntimeException {
        NullResult() {
            super("listener returned null", null, false, false);
        }
    }
}
