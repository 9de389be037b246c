package io.vrmq.client.route;

import io.vrmq.client.MessageQueue;
import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.Permission;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.TopicRouteData;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopicRouteTest {
    private static final BrokerData BROKER_A = new BrokerData("C", "a", Map.of(0L, "127.0.0.1:1"), false, null);
    private static final BrokerData SLAVE_ONLY_B = new BrokerData("C", "b", Map.of(1L, "127.0.0.1:2"), false, null);

    @Test
    void sendQueuesNeedWritePermissionAndAMaster() {
        TopicRouteData data = new TopicRouteData(null, List.of(
            new QueueData("a", 2, 3, Permission.READ_WRITE, 0),
            new QueueData("b", 2, 2, Permission.READ_WRITE, 0)), List.of(BROKER_A, SLAVE_ONLY_B), null);

        TopicRoute route = TopicRoute.of("T", data, false);

        assertEquals(List.of(new MessageQueue("T", "a", 0), new MessageQueue("T", "a", 1),
            new MessageQueue("T", "a", 2)), route.writeQueues());
        assertEquals(4, route.readQueues().size(), "a slave can serve reads");
        assertEquals(Map.of("a", "127.0.0.1:1"), route.masterAddrs());
    }

    @Test
    void aReadOnlyTopicHasNoSendQueues() {
        TopicRouteData data = new TopicRouteData(null, List.of(new QueueData("a", 4, 4, Permission.READ, 0)),
            List.of(BROKER_A), null);

        TopicRoute route = TopicRoute.of("T", data, false);

        assertTrue(route.writeQueues().isEmpty());
        assertEquals(4, route.readQueues().size());
    }

    @Test
    void theDefaultTopicsRouteIsCappedForANewTopic() {
        TopicRouteData tbw102 = new TopicRouteData(null, List.of(new QueueData("a", 8, 8, 7, 0)), List.of(BROKER_A),
            null);

        TopicRoute route = TopicRoute.fromDefaultTopic("NewTopic", tbw102, 4);

        assertEquals(4, route.writeQueues().size());
        assertEquals("NewTopic", route.writeQueues().get(0).topic());
        assertTrue(route.isFromDefaultTopic());
    }
}
