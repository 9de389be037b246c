package io.vrmq.broker.grpc;

import com.google.protobuf.Duration;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.ExponentialBackoff;
import io.vrmq.grpc.proto.Metric;
import io.vrmq.grpc.proto.Publishing;
import io.vrmq.grpc.proto.RetryPolicy;
import io.vrmq.grpc.proto.Settings;
import io.vrmq.grpc.proto.Subscription;

/**
 * The answer to a client's Settings on its Telemetry stream: the client's own settings with the server's values
 * merged in, the fields the SDKs depend on (GRPC.md 1.1): for a producer max_body_size (the broker's maxMessageSize;
 * Node reads 0 as "every body is too large") and validate_message_type; for a consumer the group's fifo, a
 * receive_batch_size above 0 and the long-polling timeout; for both an exponential backoff (the only kind the Node
 * SDK understands; Apache's proxy answers consumers with a customized one) and metrics off. Stateless.
 */
final class SettingsReply {
    /** The producer's retry policy Apache's proxy answers: 3 attempts, 10 ms doubling up to 1 s. */
    private static final int PRODUCER_MAX_ATTEMPTS = 3;
    private static final Duration PRODUCER_INITIAL_BACKOFF = millis(10);
    private static final Duration PRODUCER_MAX_BACKOFF = millis(1_000);
    /** Consumers: redelivery 1 s after the first failure, doubling up to RocketMQ's longest delay level, 2 h. */
    private static final Duration CONSUMER_INITIAL_BACKOFF = millis(1_000);
    private static final Duration CONSUMER_MAX_BACKOFF = millis(2 * 3_600_000);
    private static final float BACKOFF_MULTIPLIER = 2;
    private static final int LITE_SUBSCRIPTION_QUOTA = 2_000;
    private static final int MAX_LITE_TOPIC_SIZE = 64;

    private SettingsReply() {
    }

    /** The merged settings; a client that is neither producer nor consumer is refused (INVALID_ARGUMENT). */
    static Settings of(Settings client, BrokerContext broker, GrpcConfig config) {
        Settings.Builder reply = client.toBuilder()
            .setMetric(Metric.newBuilder().setOn(false));
        if (client.hasPublishing()) {
            reply.setPublishing(Publishing.newBuilder(client.getPublishing())
                .setMaxBodySize(broker.config().maxMessageSize()).setValidateMessageType(true));
            reply.setBackoffPolicy(exponential(PRODUCER_MAX_ATTEMPTS, PRODUCER_INITIAL_BACKOFF, PRODUCER_MAX_BACKOFF));
            return reply.build();
        }
        if (client.hasSubscription()) {
            Subscription subscription = client.getSubscription();
            SubscriptionGroupConfig group = Groups.require(broker, subscription.getGroup());
            reply.setSubscription(Subscription.newBuilder(subscription)
                .setFifo(group.consumeMessageOrderly())
                .setReceiveBatchSize(config.receiveBatchSize())
                .setLongPollingTimeout(millis(config.maxLongPollingTimeoutMs()))
                .setLiteSubscriptionQuota(LITE_SUBSCRIPTION_QUOTA)
                .setMaxLiteTopicSize(MAX_LITE_TOPIC_SIZE));
            reply.setBackoffPolicy(exponential(group.retryMaxTimes() + 1, CONSUMER_INITIAL_BACKOFF,
                CONSUMER_MAX_BACKOFF));
            return reply.build();
        }
        throw new GrpcStatusException(Code.BAD_REQUEST, "settings name neither publishing nor subscription");
    }

    private static RetryPolicy exponential(int maxAttempts, Duration initial, Duration max) {
        return RetryPolicy.newBuilder().setMaxAttempts(maxAttempts)
            .setExponentialBackoff(ExponentialBackoff.newBuilder().setInitial(initial).setMax(max)
                .setMultiplier(BACKOFF_MULTIPLIER))
            .build();
    }

    static Duration millis(long ms) {
        return Duration.newBuilder().setSeconds(ms / 1000).setNanos((int) (ms % 1000) * 1_000_000).build();
    }

    static long millisOf(Duration duration) {
        return duration.getSeconds() * 1000 + duration.getNanos() / 1_000_000;
    }
}
