package io.vrmq.client.route;

import io.vertx.core.Future;
import io.vrmq.client.ClientException;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Route look-ups (GET_ROUTEINFO_BY_TOPIC, 105) against a list of NameServers: sticks to one, and on a connection
 * failure or timeout tries the next, each at most once per look-up. A NameServer's answer (route or
 * TOPIC_NOT_EXIST) is final: the others hold the same data. Confined to the client's context.
 */
public final class NameServerClient {
    private static final Logger log = LoggerFactory.getLogger(NameServerClient.class);

    private final RemotingClient remoting;
    private final RemotingJson json;
    private final List<String> addresses;
    private final long requestTimeoutMs;
    private int currentIndex;

    public NameServerClient(RemotingClient remoting, RemotingJson json, List<String> addresses,
                            long requestTimeoutMs) {
        this.remoting = remoting;
        this.json = json;
        this.addresses = List.copyOf(addresses);
        this.requestTimeoutMs = requestTimeoutMs;
        this.currentIndex = ThreadLocalRandom.current().nextInt(addresses.size());
    }

    /** Fails with a ClientException: code TOPIC_NOT_EXIST when no broker serves it, NO_RESPONSE when none answered. */
    public Future<TopicRouteData> topicRoute(String topic) {
        return tryFrom(topic, addresses.size(), null);
    }

    private Future<TopicRouteData> tryFrom(String topic, int attemptsLeft, Throwable lastError) {
        if (attemptsLeft == 0) {
            return Future.failedFuture(new ClientException("no NameServer of " + addresses + " answered the route"
                + " of " + topic + ": " + lastError, lastError));
        }
        String address = addresses.get(currentIndex);
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic),
            null);
        return remoting.invoke(address, request, requestTimeoutMs).transform(outcome -> {
            if (outcome.succeeded()) {
                return answer(topic, outcome.result());
            }
            log.debug("NameServer {} did not answer the route of {}: {}", address, topic, outcome.cause().toString());
            currentIndex = (currentIndex + 1) % addresses.size();
            return tryFrom(topic, attemptsLeft - 1, outcome.cause());
        });
    }

    private Future<TopicRouteData> answer(String topic, RemotingCommand response) {
        if (response.code() == ResponseCode.SUCCESS && response.hasBody()) {
            return Future.succeededFuture(json.decode(response.body(), TopicRouteData.class));
        }
        return Future.failedFuture(new ClientException(response.code(), "route of " + topic + ": code "
            + response.code() + ", " + response.remark()));
    }
}
