package io.vrmq.client.route;

import io.vrmq.client.MessageQueue;
import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicRouteData;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A topic's route turned into queues, as the official client builds them: send queues from writable queue data of
 * broker groups that have a master, consume queues from readable queue data. Immutable value.
 *
 * @param isFromDefaultTopic built from TBW102's route because the topic does not exist yet (the broker creates it on
 *                           the first send)
 */
public record TopicRoute(String topic, TopicRouteData data, List<MessageQueue> writeQueues,
                         List<MessageQueue> readQueues, Map<String, String> masterAddrs,
                         Map<String, Map<Long, String>> brokerAddrs, boolean isFromDefaultTopic) {

    public static TopicRoute of(String topic, TopicRouteData data, boolean isFromDefaultTopic) {
        Map<String, String> masters = new HashMap<>();
        Map<String, Map<Long, String>> all = new HashMap<>();
        for (BrokerData broker : data.brokerDatas()) {
            all.put(broker.brokerName(), Map.copyOf(broker.brokerAddrs()));
            String master = broker.brokerAddrs().get(BrokerData.MASTER_ID);
            if (master != null) {
                masters.put(broker.brokerName(), master);
            }
        }
        List<QueueData> queueDatas = new ArrayList<>(data.queueDatas());
        queueDatas.sort(Comparator.comparing(QueueData::brokerName));
        List<MessageQueue> write = new ArrayList<>();
        List<MessageQueue> read = new ArrayList<>();
        for (QueueData queues : queueDatas) {
            if (Permission.isWritable(queues.perm()) && masters.containsKey(queues.brokerName())) {
                for (int queueId = 0; queueId < queues.writeQueueNums(); queueId++) {
                    write.add(new MessageQueue(topic, queues.brokerName(), queueId));
                }
            }
            if (Permission.isReadable(queues.perm())) {
                for (int queueId = 0; queueId < queues.readQueueNums(); queueId++) {
                    read.add(new MessageQueue(topic, queues.brokerName(), queueId));
                }
            }
        }
        return new TopicRoute(topic, data, List.copyOf(write), List.copyOf(read), Map.copyOf(masters),
            Map.copyOf(all), isFromDefaultTopic);
    }

    /** TBW102's route for a topic that does not exist yet: each broker's queues capped at {@code maxQueueNums}. */
    public static TopicRoute fromDefaultTopic(String topic, TopicRouteData defaultRoute, int maxQueueNums) {
        List<QueueData> capped = defaultRoute.queueDatas().stream()
            .map(queues -> {
                int queueNums = Math.min(maxQueueNums, queues.readQueueNums());
                return new QueueData(queues.brokerName(), queueNums, queueNums, queues.perm(),
                    queues.topicSysFlag());
            })
            .toList();
        TopicRouteData data = new TopicRouteData(defaultRoute.orderTopicConf(), capped, defaultRoute.brokerDatas(),
            defaultRoute.filterServerTable());
        return of(topic, data, true);
    }

    public boolean isWritable() {
        return !writeQueues.isEmpty();
    }
}
