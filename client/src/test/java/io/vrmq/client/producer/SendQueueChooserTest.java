package io.vrmq.client.producer;

import io.vrmq.client.MessageQueue;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class SendQueueChooserTest {
    private static final List<MessageQueue> QUEUES = List.of(
        new MessageQueue("T", "a", 0), new MessageQueue("T", "a", 1),
        new MessageQueue("T", "b", 0), new MessageQueue("T", "b", 1));
    private final AtomicLong clock = new AtomicLong(1_000);
    private final BrokerFaultTable faults = new BrokerFaultTable(clock::get);

    @Test
    void roundRobinVisitsEveryQueueOnceAround() {
        SendQueueChooser chooser = new SendQueueChooser(faults, true);
        Set<MessageQueue> chosen = new HashSet<>();
        for (int send = 0; send < QUEUES.size(); send++) {
            chosen.add(chooser.choose("T", QUEUES, null));
        }
        assertEquals(Set.copyOf(QUEUES), chosen);
    }

    @Test
    void aRetryGoesToAnotherBroker() {
        SendQueueChooser chooser = new SendQueueChooser(faults, false);
        for (int send = 0; send < 10; send++) {
            assertNotEquals("a", chooser.choose("T", QUEUES, "a").brokerName());
        }
    }

    @Test
    void anAvoidedBrokerIsSkippedWhileAnotherIsAvailable() {
        SendQueueChooser chooser = new SendQueueChooser(faults, true);
        faults.record("b", 3, true);
        for (int send = 0; send < 10; send++) {
            assertEquals("a", chooser.choose("T", QUEUES, null).brokerName());
        }
    }

    @Test
    void withAvoidanceOffAnAvoidedBrokerStillGetsItsTurn() {
        SendQueueChooser chooser = new SendQueueChooser(faults, false);
        faults.record("b", 3, true);
        Set<String> brokers = new HashSet<>();
        for (int send = 0; send < 4; send++) {
            brokers.add(chooser.choose("T", QUEUES, null).brokerName());
        }
        assertEquals(Set.of("a", "b"), brokers);
    }

    @Test
    void whenEveryBrokerIsAvoidedOneIsStillChosen() {
        SendQueueChooser chooser = new SendQueueChooser(faults, true);
        faults.record("a", 3, true);
        faults.record("b", 3, true);

        chooser.choose("T", QUEUES, "a");
    }
}
