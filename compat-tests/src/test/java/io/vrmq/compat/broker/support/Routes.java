package io.vrmq.compat.broker.support;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.vrmq.compat.support.Await;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/** Topic routes as the official admin reads them from the NameServer (GET_ROUTEINFO_BY_TOPIC). Stateless. */
public final class Routes {

    private Routes() {
    }

    /**
     * Waits until the route of {@code topic} lists exactly {@code brokerAddrs} (brokerId to address) for
     * {@code brokerName}, and returns that route: a slave appears once it registered, a dead master disappears once
     * the NameServer saw its connection close.
     */
    public static TopicRouteData awaitBrokerAddrs(DefaultMQAdminExt admin, String topic, String brokerName,
                                                  Map<Long, String> brokerAddrs, Duration timeout) {
        TopicRouteData[] route = new TopicRouteData[1];
        try {
            Await.until("the route of " + topic + " listing " + brokerAddrs + " for " + brokerName, timeout, () -> {
                route[0] = admin.examineTopicRouteInfo(topic);
                return brokerAddrs.equals(brokerAddrsOf(route[0], brokerName));
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last route: " + route[0], e);
        }
        return route[0];
    }

    /** brokerId to address of {@code brokerName} in {@code route}; empty when the route does not list it. */
    public static Map<Long, String> brokerAddrsOf(TopicRouteData route, String brokerName) {
        return route.getBrokerDatas().stream()
            .filter(brokerData -> brokerData.getBrokerName().equals(brokerName))
            .findFirst()
            .map(BrokerData::getBrokerAddrs)
            .<Map<Long, String>>map(HashMap::new)
            .orElse(Map.of());
    }
}
