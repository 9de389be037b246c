package io.vrmq.broker.admin;

import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.store.StoreConfig;

import java.util.Map;
import java.util.TreeMap;

/**
 * The broker's effective settings as GET_BROKER_CONFIG (26) returns them: a properties text, one {@code name=value}
 * line each (RocketMQ's MixAll.properties2String, which mqadmin getBrokerConfig reads back with
 * {@code Properties.load}), under RocketMQ's names where one exists. Secrets (adminToken) are left out. The HTTP
 * admin API shows the same {@link #values}. Stateless.
 */
public final class BrokerConfigText {
    private BrokerConfigText() {
    }

    static String of(BrokerConfig broker, StoreConfig store, BrokerRole role) {
        Map<String, Object> values = values(broker, store, role);
        StringBuilder text = new StringBuilder();
        values.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        return text.toString();
    }

    /** Every effective setting by name, sorted; secrets left out. */
    public static Map<String, Object> values(BrokerConfig broker, StoreConfig store, BrokerRole role) {
        Map<String, Object> values = new TreeMap<>();
        putBroker(values, broker, role);
        putStore(values, store);
        return values;
    }

    private static void putBroker(Map<String, Object> values, BrokerConfig config, BrokerRole role) {
        values.put("brokerClusterName", config.brokerClusterName());
        values.put("brokerName", config.brokerName());
        values.put("brokerId", role.brokerId());
        values.put("brokerRole", role.brokerRole());
        values.put("namesrvAddr", String.join(";", config.namesrvAddrs()));
        values.put("listenPort", config.listenPort());
        values.put("bindAddress", config.bindAddress());
        values.put("brokerIP1", config.brokerIP1());
        values.put("brokerPermission", config.brokerPermission());
        values.put("autoCreateTopicEnable", config.autoCreateTopicEnable());
        values.put("autoCreateSubscriptionGroup", config.autoCreateSubscriptionGroup());
        values.put("defaultTopicQueueNums", config.defaultTopicQueueNums());
        values.put("registerNameServerPeriod", config.registerNameServerPeriodMs());
        values.put("longPollingEnable", config.longPollingEnable());
        values.put("shortPollingTimeMills", config.shortPollingTimeMs());
        values.put("maxHeldPullRequests", config.maxHeldPullRequests());
        values.put("maxTransferCountOnMessageInMemory", config.pullTransfer().maxMessages());
        values.put("maxTransferBytesOnMessageInMemory", config.pullTransfer().maxBytes());
        values.put("flushConsumerOffsetInterval", config.flushConsumerOffsetIntervalMs());
        values.put("channelExpiredTimeout", config.channelExpiredTimeoutMs());
        values.put("heartbeatDecodeOnWorkerBytes", config.heartbeatDecodeOnWorkerBytes());
        values.put("clientChannelScanInterval", config.clientChannelScanIntervalMs());
        values.put("messageDelayLevel", config.messageDelayLevel());
        values.put("maxReconsumeTimes", config.maxReconsumeTimes());
        values.put("storeReaderThreads", config.storeReaderThreads());
        values.put("adminPort", config.adminPort());
        values.put("adminHost", config.adminHost());
        values.put("maxFrameBytes", config.limits().maxFrameBytes());
        values.put("requestTimeoutMs", config.limits().requestTimeoutMs());
        values.put("maxPendingRequests", config.limits().maxPendingRequests());
        values.put("maxWritesPerFlush", config.limits().maxWritesPerFlush());
        values.put("maxConnections", config.maxConnections());
        values.put("shutdownGraceMs", config.shutdownGraceMs());
        values.putAll(config.grpc().values());
        values.put("haListenPort", config.ha().haListenPort());
        values.put("haMasterAddress", config.ha().haMasterAddress());
        values.put("haSendHeartbeatInterval", config.ha().haSendHeartbeatIntervalMs());
        values.put("haHousekeepingInterval", config.ha().haHousekeepingIntervalMs());
        values.put("haTransferBatchSize", config.ha().haTransferBatchSize());
        values.put("haMaxGapNotInSync", config.ha().haMaxGapNotInSync());
        values.put("slaveTimeout", config.ha().slaveTimeoutMs());
        values.put("slaveReadEnable", config.ha().slaveReadEnable());
        values.put("slaveSyncMetadataInterval", config.ha().slaveSyncMetadataIntervalMs());
        values.put("transactionTimeOut", config.transaction().transactionTimeOutMs());
        values.put("transactionCheckMax", config.transaction().transactionCheckMax());
        values.put("transactionCheckInterval", config.transaction().transactionCheckIntervalMs());
    }

    private static void putStore(Map<String, Object> values, StoreConfig config) {
        values.put("storePathRootDir", config.storePathRootDir());
        values.put("storePathCommitLog", config.storePathRootDir().resolve("commitlog"));
        values.put("mappedFileSizeCommitLog", config.mappedFileSizeCommitLog());
        values.put("mappedFileSizeConsumeQueue", config.mappedFileSizeConsumeQueue());
        values.put("flushDiskType", config.flushDiskType());
        values.put("flushIntervalCommitLog", config.flushIntervalCommitLogMs());
        values.put("flushCommitLogLeastPages", config.flushCommitLogLeastPages());
        values.put("flushCommitLogThoroughInterval", config.flushCommitLogThoroughIntervalMs());
        values.put("flushIntervalConsumeQueue", config.flushIntervalConsumeQueueMs());
        values.put("flushConsumeQueueLeastPages", config.flushConsumeQueueLeastPages());
        values.put("flushConsumeQueueThoroughInterval", config.flushConsumeQueueThoroughIntervalMs());
        values.put("syncFlushTimeout", config.syncFlushTimeoutMs());
        values.put("maxMessageSize", config.maxMessageSize());
        values.put("fileReservedTime", config.fileReservedTimeHours());
        values.put("deleteWhen", config.deleteWhen());
        values.put("diskMaxUsedSpaceRatio", config.diskMaxUsedSpaceRatio());
        values.put("diskCriticalRatio", config.diskCriticalRatio());
        values.put("maxHashSlotNum", config.maxIndexHashSlots());
        values.put("maxIndexNum", config.maxIndexCount());
        values.put("accessMessageInMemoryMaxRatio", config.accessMessageInMemoryMaxRatio());
    }
}
