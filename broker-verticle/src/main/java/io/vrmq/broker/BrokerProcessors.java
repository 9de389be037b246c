package io.vrmq.broker;

import io.vrmq.broker.admin.BrokerConsumeStatsProcessor;
import io.vrmq.broker.admin.BrokerInfoProcessor;
import io.vrmq.broker.admin.ClientConnectionProcessor;
import io.vrmq.broker.admin.ConsumeStatsProcessor;
import io.vrmq.broker.admin.ConsumerCallProcessor;
import io.vrmq.broker.admin.GroupAdminProcessor;
import io.vrmq.broker.admin.ProducerTableProcessor;
import io.vrmq.broker.admin.QueueLockProcessor;
import io.vrmq.broker.admin.QueueLockTable;
import io.vrmq.broker.admin.ResetOffsetProcessor;
import io.vrmq.broker.admin.SystemTopicNames;
import io.vrmq.broker.admin.TopicAdminProcessor;
import io.vertx.core.Future;
import io.vrmq.broker.controller.ControllerModeProcessor;
import io.vrmq.broker.ha.SlaveDataProcessor;
import io.vrmq.broker.longpoll.PullHoldService;
import io.vrmq.broker.pop.PopServices;
import io.vrmq.broker.processor.ClientManageProcessor;
import io.vrmq.broker.processor.DeliveryRouting;
import io.vrmq.broker.processor.OffsetProcessor;
import io.vrmq.broker.processor.PullMessageProcessor;
import io.vrmq.broker.processor.QueryMessageProcessor;
import io.vrmq.broker.loops.HotPathConfig;
import io.vrmq.broker.processor.SendMessageProcessor;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.broker.transaction.EndTransactionProcessor;
import io.vrmq.broker.transaction.OpRecords;
import io.vrmq.remoting.transport.ProcessorTable;

import java.util.Map;
import java.util.function.Supplier;

/** Builds the broker's processor table: which class answers which request code. Wiring only. */
final class BrokerProcessors {
    private BrokerProcessors() {
    }

    static ProcessorTable build(BrokerContext broker, PullHoldService holds,
                                Supplier<Future<Map<Integer, Long>>> delayOffsets,
                                ControllerModeProcessor controllerMode, PopServices pop,
                                HotPathConfig hotPath) {
        ProcessorTable.Builder table = ProcessorTable.builder();
        TopicResolver topics = new TopicResolver(broker);
        DeliveryRouting routing = new DeliveryRouting(broker, topics);
        new SendMessageProcessor(broker, topics, routing).registerInto(table);
        new PullMessageProcessor(broker, holds, hotPath.holdCaughtUpPullsAtOnce(), hotPath.maxCopiedPullBytesInUse())
            .registerInto(table);
        new ClientManageProcessor(broker, topics).registerInto(table);
        new OffsetProcessor(broker).registerInto(table);
        SystemTopicNames systemTopics = new SystemTopicNames(broker.config());
        new TopicAdminProcessor(broker, systemTopics).registerInto(table);
        new BrokerInfoProcessor(broker, System.currentTimeMillis()).registerInto(table);
        new GroupAdminProcessor(broker).registerInto(table);
        new ClientConnectionProcessor(broker).registerInto(table);
        new ConsumeStatsProcessor(broker).registerInto(table);
        new ConsumerCallProcessor(broker).registerInto(table);
        new ProducerTableProcessor(broker).registerInto(table);
        new BrokerConsumeStatsProcessor(broker).registerInto(table);
        new ResetOffsetProcessor(broker).registerInto(table);
        new QueueLockProcessor(broker, new QueueLockTable(System::currentTimeMillis,
            QueueLockTable.DEFAULT_MAX_LIVE_TIME_MS)).registerInto(table);
        new QueryMessageProcessor(broker).registerInto(table);
        new io.vrmq.broker.retry.SendBackProcessor(broker, topics, routing).registerInto(table);
        new SlaveDataProcessor(broker, delayOffsets).registerInto(table);
        new EndTransactionProcessor(broker, routing, OpRecords.of(broker), System::currentTimeMillis)
            .registerInto(table);
        controllerMode.registerInto(table);
        pop.registerInto(table);
        io.vrmq.broker.feature.FeatureProcessors.registerInto(table, broker);
        return table.build();
    }
}
