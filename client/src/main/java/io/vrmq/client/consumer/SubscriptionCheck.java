package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ClientException;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * CHECK_CLIENT_CONFIG (46) at a consumer's start, as the official client does: each non-TAG (SQL92) subscription is
 * shown to one master of its topic, which compiles it; a refusal (SUBSCRIPTION_PARSE_FAILED with the reason, or
 * SYSTEM_ERROR from a broker with enablePropertyFilter off) fails the start. A topic with no route yet is skipped
 * (the official client skips it too). Call on the client's context.
 */
public final class SubscriptionCheck {
    private SubscriptionCheck() {
    }

    public static Future<Void> check(ClientRuntime runtime, String group, Collection<SubscriptionData> subscriptions) {
        List<Future<Void>> checks = new ArrayList<>();
        for (SubscriptionData subscription : subscriptions) {
            if (!SubscriptionData.TAG_EXPRESSION.equals(subscription.expressionType())) {
                checks.add(checkOne(runtime, group, subscription));
            }
        }
        return Future.all(checks).mapEmpty();
    }

    private static Future<Void> checkOne(ClientRuntime runtime, String group, SubscriptionData subscription) {
        return runtime.routes().route(subscription.topic()).otherwiseEmpty().compose(route -> {
            if (route == null || route.masterAddrs().isEmpty()) {
                return Future.succeededFuture();
            }
            String address = route.masterAddrs().values().iterator().next();
            Map<String, Object> body = Map.of("clientId", runtime.clientId(), "group", group,
                "subscriptionData", subscription);
            RemotingCommand request = RemotingCommand.request(RequestCode.CHECK_CLIENT_CONFIG, Map.of(),
                runtime.json().encode(body));
            return runtime.remoting().invoke(address, request).compose(response -> response.code()
                == ResponseCode.SUCCESS ? Future.<Void>succeededFuture()
                : Future.failedFuture(new ClientException(response.code(), "broker " + address + " refused the "
                + subscription.expressionType() + " subscription [" + subscription.subString() + "] of "
                + subscription.topic() + ": " + response.remark())));
        });
    }
}
