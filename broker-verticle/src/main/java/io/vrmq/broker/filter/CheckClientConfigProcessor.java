package io.vrmq.broker.filter;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CHECK_CLIENT_CONFIG (46): a push or lite-pull consumer with a non-TAG subscription asks at start whether the broker
 * takes it; a refusal makes the official client's start fail. RocketMQ's answers: TAG (or no body) SUCCESS; with
 * enablePropertyFilter off SYSTEM_ERROR; an expression that does not compile SUBSCRIPTION_PARSE_FAILED (23) with the
 * reason. The expression compiles into the shared cache, so the consumer's pulls reuse it. Runs on the event loop.
 */
public final class CheckClientConfigProcessor {
    private static final Logger log = LoggerFactory.getLogger(CheckClientConfigProcessor.class);

    private final BrokerContext broker;

    public CheckClientConfigProcessor(BrokerContext broker) {
        this.broker = broker;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.CHECK_CLIENT_CONFIG, this::check);
    }

    private Future<RemotingCommand> check(RemotingConnection connection, RemotingCommand request) {
        CheckClientBody body = request.body() == null ? null
            : broker.json().decode(request.body(), CheckClientBody.class);
        SubscriptionData subscription = body == null ? null : body.subscriptionData();
        if (subscription == null || SubscriptionFilters.isTagType(subscription.expressionType())) {
            return Future.succeededFuture(RemotingCommand.success(request, null));
        }
        SubscriptionFilters filters = broker.features().filters();
        if (!filters.isPropertyFilterEnabled()) {
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SYSTEM_ERROR,
                "The broker does not support consumer to filter message by " + subscription.expressionType()));
        }
        try {
            filters.selector(subscription.expressionType(), subscription.subString());
        } catch (FilterParseException e) {
            log.warn("client {} of group {} at {} subscribes to {} with {} [{}] that does not compile: {}",
                body.clientId(), body.group(), connection.remoteAddress(), subscription.topic(),
                subscription.expressionType(), subscription.subString(), e.getMessage());
            return Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED,
                "Invalid MessageSelector. " + e.getMessage()));
        }
        return Future.succeededFuture(RemotingCommand.success(request, null));
    }

    /** CheckClientRequestBody. */
    record CheckClientBody(String clientId, String group, SubscriptionData subscriptionData, String namespace) {
    }
}
