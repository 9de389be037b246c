package io.vrmq.broker.pop;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The readable queues of a topic on every broker, as QUERY_ASSIGNMENT balances them (RocketMQ's
 * TopicRouteInfoManager.getTopicSubscribeInfo): from a NameServer's route (GET_ROUTEINFO_BY_TOPIC, cached for
 * {@link #CACHE_MS}, RocketMQ's route refresh period), or, with no NameServer reachable, this broker's own queues.
 * Thread-safe; results complete on the caller's context.
 */
final class TopicQueues {
    private static final Logger log = LoggerFactory.getLogger(TopicQueues.class);
    static final long CACHE_MS = 30_000;
    private static final long LOOKUP_TIMEOUT_MS = 3_000;

    private final BrokerContext broker;
    private final RemotingClient namesrvClient;
    private final List<String> namesrvAddrs;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(List<QueueAllocation.AssignedQueue> queues, long atMs) {
    }

    TopicQueues(BrokerContext broker, RemotingClient namesrvClient) {
        this.broker = broker;
        this.namesrvClient = namesrvClient;
        this.namesrvAddrs = broker.config().namesrvAddrs();
    }

    /** Sorted; empty when the topic is known nowhere. */
    Future<List<QueueAllocation.AssignedQueue>> readableQueues(String topic) {
        long now = System.currentTimeMillis();
        Cached cached = cache.get(topic);
        if (cached != null && now - cached.atMs() < CACHE_MS) {
            return Future.succeededFuture(cached.queues());
        }
        if (namesrvClient == null || namesrvAddrs.isEmpty()) {
            return Future.succeededFuture(localQueues(topic));
        }
        String addr = namesrvAddrs.get(Math.floorMod(topic.hashCode(), namesrvAddrs.size()));
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic),
            null);
        return namesrvClient.invoke(addr, request, LOOKUP_TIMEOUT_MS).map(response -> {
            if (response.code() != ResponseCode.SUCCESS || !response.hasBody()) {
                return localQueues(topic);
            }
            List<QueueAllocation.AssignedQueue> queues = routeQueues(topic,
                broker.json().decode(response.body(), TopicRouteData.class));
            cache.put(topic, new Cached(queues, now));
            return queues;
        }).recover(error -> {
            log.debug("route of {} from {} failed ({}); using this broker's queues", topic, addr, error.toString());
            return Future.succeededFuture(localQueues(topic));
        });
    }

    private static List<QueueAllocation.AssignedQueue> routeQueues(String topic, TopicRouteData route) {
        List<QueueAllocation.AssignedQueue> queues = new ArrayList<>();
        for (QueueData data : route.queueDatas()) {
            if (Permission.isReadable(data.perm())) {
                for (int queueId = 0; queueId < data.readQueueNums(); queueId++) {
                    queues.add(new QueueAllocation.AssignedQueue(topic, data.brokerName(), queueId));
                }
            }
        }
        Collections.sort(queues);
        return queues;
    }

    private List<QueueAllocation.AssignedQueue> localQueues(String topic) {
        TopicConfig config = broker.topics().get(topic);
        List<QueueAllocation.AssignedQueue> queues = new ArrayList<>();
        if (config != null && Permission.isReadable(config.perm())) {
            for (int queueId = 0; queueId < config.readQueueNums(); queueId++) {
                queues.add(new QueueAllocation.AssignedQueue(topic, broker.config().brokerName(), queueId));
            }
        }
        return queues;
    }
}
