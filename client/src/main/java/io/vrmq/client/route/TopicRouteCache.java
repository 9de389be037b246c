package io.vrmq.client.route;

import io.vertx.core.Future;
import io.vrmq.client.ClientException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The routes a client knows, kept across NameServer outages: a failed refresh keeps the last route, so sends to
 * known topics go on while every NameServer is down. Refreshed by the owner every pollNameServerInterval.
 * Confined to the client's context.
 */
public final class TopicRouteCache {
    /** The topic whose route stands in for topics the broker creates on first send. */
    public static final String DEFAULT_TOPIC = "TBW102";
    private static final Logger log = LoggerFactory.getLogger(TopicRouteCache.class);

    private final NameServerClient nameServers;
    private final Map<String, TopicRoute> routes = new HashMap<>();

    public TopicRouteCache(NameServerClient nameServers) {
        this.nameServers = nameServers;
    }

    /** The cached route, or a fresh look-up. */
    public Future<TopicRoute> route(String topic) {
        TopicRoute cached = routes.get(topic);
        return cached != null ? Future.succeededFuture(cached) : refresh(topic);
    }

    /** The route to send to: cached, looked up, or (topic unknown) TBW102's capped to {@code maxQueueNums}. */
    public Future<TopicRoute> sendRoute(String topic, int maxQueueNums) {
        TopicRoute cached = routes.get(topic);
        if (cached != null && cached.isWritable()) {
            return Future.succeededFuture(cached);
        }
        return refresh(topic).recover(error -> {
            if (!(error instanceof ClientException refused) || refused.responseCode() != ResponseCode.TOPIC_NOT_EXIST) {
                return Future.failedFuture(error);
            }
            return nameServers.topicRoute(DEFAULT_TOPIC).map(defaultRoute -> {
                TopicRoute route = TopicRoute.fromDefaultTopic(topic, defaultRoute, maxQueueNums);
                routes.put(topic, route);
                return route;
            });
        });
    }

    /** Looks the route up again; on failure the cached one (if any) stays. */
    public Future<TopicRoute> refresh(String topic) {
        return nameServers.topicRoute(topic).map(data -> {
            TopicRoute route = TopicRoute.of(topic, data, false);
            TopicRoute previous = routes.put(topic, route);
            if (previous == null || !previous.data().equals(data)) {
                log.info("route of {} is now {}", topic, data);
            }
            return route;
        });
    }

    /** Refreshes every known topic; failures are logged and keep the cached routes. */
    public Future<Void> refreshAll() {
        List<Future<TopicRoute>> lookups = new ArrayList<>();
        for (String topic : List.copyOf(routes.keySet())) {
            lookups.add(refresh(topic).onFailure(error -> log.debug("route of {} not refreshed, keeping the cached"
                + " one: {}", topic, error.getMessage())));
        }
        return Future.join(lookups).<Void>mapEmpty().otherwiseEmpty();
    }

    public TopicRoute cached(String topic) {
        return routes.get(topic);
    }

    /** The master address of a broker group, from any cached route; null when unknown. */
    public String masterAddr(String brokerName) {
        for (TopicRoute route : routes.values()) {
            String address = route.masterAddrs().get(brokerName);
            if (address != null) {
                return address;
            }
        }
        return null;
    }

    /** Every master (or, with {@code isMastersOnly} false, every broker) address of the given topics' routes. */
    public Set<String> brokerAddrs(Iterable<String> topics, boolean isMastersOnly) {
        Set<String> addresses = new LinkedHashSet<>();
        for (String topic : topics) {
            TopicRoute route = routes.get(topic);
            if (route == null) {
                continue;
            }
            if (isMastersOnly) {
                addresses.addAll(route.masterAddrs().values());
            } else {
                route.brokerAddrs().values().forEach(byId -> addresses.addAll(byId.values()));
            }
        }
        return addresses;
    }

    public Set<String> topics() {
        return Set.copyOf(routes.keySet());
    }
}
