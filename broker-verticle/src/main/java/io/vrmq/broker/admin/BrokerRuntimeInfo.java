package io.vrmq.broker.admin;

import io.vrmq.broker.BrokerConfig;
import io.vrmq.broker.role.BrokerRole;
import io.vrmq.broker.metrics.BrokerMetrics;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.store.MessageStore;
import io.vrmq.store.StoreStats;

import java.io.File;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GET_BROKER_RUNTIME_INFO (28) table: every key that mqadmin's clusterList and brokerStatus read, under RocketMQ's
 * names and in RocketMQ's formats (tps as three space-separated windows, ratios as fractions of 1, sizes as
 * "1.5 MiB"), so that neither command meets a missing or unparsable value.
 *
 * <p>Rates come from the broker's meters (put and get tps over 10 s, 1 min, 10 min; get totals since start);
 * {@code msgPutTotalTodayNow} is the number of entries in all ConsumeQueues (every message stored and still indexed),
 * the "morning" totals are 0, and thread pool figures are 0 (the broker has no request queues to report). Built on a reader thread: it walks every
 * ConsumeQueue and asks the file system for disk space.
 */
final class BrokerRuntimeInfo {
    static final String BROKER_VERSION_DESC = "V5_5_0";
    private static final String NO_TPS = "0.0 0.0 0.0";
    private static final long TEN_SECONDS_MS = 10_000;
    private static final long ONE_MINUTE_MS = 60_000;
    private static final long TEN_MINUTES_MS = 600_000;
    private static final String[] ZERO_KEYS = {"msgPutTotalYesterdayMorning", "msgPutTotalTodayMorning",
        "msgGetTotalYesterdayMorning", "msgGetTotalTodayMorning", "msgGetTotalTodayNow", "pageCacheLockTimeMills",
        "startAcceptSendRequestTimeStamp", "timerReadBehind", "timerOffsetBehind", "timerCongestNum",
        "putMessageEntireTimeMax", "putMessageFailedTimes", "dispatchMaxBuffer", "getMessageEntireTimeMax",
        "sendThreadPoolQueueSize", "pullThreadPoolQueueSize", "litePullThreadPoolQueueSize",
        "queryThreadPoolQueueSize", "ackThreadPoolQueueSize", "EndTransactionQueueSize",
        "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueHeadWaitTimeMills",
        "queryThreadPoolQueueHeadWaitTimeMills", "litePullThreadPoolQueueHeadWaitTimeMills",
        "ackThreadPoolQueueHeadWaitTimeMills"};
    private static final String[] TPS_KEYS = {"putTps", "getFoundTps", "getMissTps", "getTotalTps",
        "getTransferredTps"};

    private BrokerRuntimeInfo() {
    }

    static Map<String, String> collect(BrokerConfig config, BrokerRole role, TopicConfigTable topics, MessageStore store,
                                       BrokerMetrics metrics, long bootTimestampMs, long nowMs,
                                       String masterAddr) {
        Map<String, String> table = new TreeMap<>();
        if (masterAddr != null) {
            table.put("masterAddr", masterAddr);   // a slave's master, as RocketMQ's slaves report it
        }
        for (String key : ZERO_KEYS) {
            table.put(key, "0");
        }
        for (String key : TPS_KEYS) {
            table.put(key, NO_TPS);
        }
        String putTps = tps(metrics::putPerSecond, nowMs);
        String getTps = tps(metrics::getPerSecond, nowMs);
        table.put("putTps", putTps);
        table.put("getFoundTps", getTps);
        table.put("getTotalTps", getTps);
        table.put("getTransferredTps", getTps);
        table.put("msgGetTotalTodayNow", Long.toString(metrics.getTotal()));
        table.put("timerEnqueueTps", "0.0");
        table.put("timerDequeueTps", "0.0");
        table.put("putLatency99", "0.00");
        table.put("putLatency999", "0.00");
        table.put("brokerVersionDesc", BROKER_VERSION_DESC);
        table.put("brokerVersion", "513");
        table.put("brokerActive", Boolean.toString(role.isMaster()));
        table.put("bootTimestamp", Long.toString(bootTimestampMs));
        table.put("runtime", runtime(nowMs - bootTimestampMs));
        putStoreFigures(table, topics, store);
        putDiskFigures(table, store);
        return table;
    }

    /** RocketMQ's tps format: the rate over the last 10 s, 1 min and 10 min, space-separated. */
    private static String tps(RateOverWindow rate, long nowMs) {
        return String.format(java.util.Locale.ROOT, "%.2f %.2f %.2f", rate.perSecond(nowMs, TEN_SECONDS_MS),
            rate.perSecond(nowMs, ONE_MINUTE_MS), rate.perSecond(nowMs, TEN_MINUTES_MS));
    }

    @FunctionalInterface
    private interface RateOverWindow {
        double perSecond(long nowMs, long windowMs);
    }

    private static void putStoreFigures(Map<String, String> table, TopicConfigTable topics, MessageStore store) {
        StoreStats stats = store.stats();
        long messageCount = storedMessageCount(topics, store);
        long storedBytes = stats.commitLogMaxOffset() - stats.commitLogMinOffset();
        table.put("msgPutTotalTodayNow", Long.toString(messageCount));
        table.put("putMessageTimesTotal", Long.toString(messageCount));
        table.put("putMessageSizeTotal", Long.toString(stats.commitLogMaxOffset()));
        table.put("putMessageAverageSize", Double.toString(messageCount == 0 ? 0.0
            : (double) storedBytes / messageCount));
        table.put("putMessageDistributeTime", "");
        table.put("commitLogMinOffset", Long.toString(stats.commitLogMinOffset()));
        table.put("commitLogMaxOffset", Long.toString(stats.commitLogMaxOffset()));
        table.put("dispatchBehindBytes", Long.toString(Math.max(0,
            stats.commitLogMaxOffset() - stats.dispatchedOffset())));
        table.put("remainHowManyDataToFlush", humanReadableBytes(Math.max(0,
            stats.commitLogMaxOffset() - stats.commitLogFlushedOffset())));
        table.put("remainTransientStoreBufferNumbs", Integer.toString(Integer.MAX_VALUE));
        table.put("earliestMessageTimeStamp", Long.toString(store.getEarliestMessageTime()));
    }

    private static long storedMessageCount(TopicConfigTable topics, MessageStore store) {
        long count = 0;
        for (String topic : topics.all().keySet()) {
            for (int queueId : store.getQueueIds(topic)) {
                count += store.getMaxOffsetInQueue(topic, queueId) - store.getMinOffsetInQueue(topic, queueId);
            }
        }
        return count;
    }

    private static void putDiskFigures(Map<String, String> table, MessageStore store) {
        File root = store.config().storePathRootDir().toFile();
        File commitLog = new File(root, "commitlog");
        String ratio = Double.toString(usedRatio(commitLog.exists() ? commitLog : root));
        table.put("commitLogDiskRatio", ratio);
        table.put("commitLogDiskRatio_" + commitLog.getPath(), ratio);
        File consumeQueue = new File(root, "consumequeue");
        table.put("consumeQueueDiskRatio", Double.toString(usedRatio(consumeQueue.exists() ? consumeQueue : root)));
        table.put("commitLogDirCapacity", "Total : " + humanReadableBytes(root.getTotalSpace()) + ", Free : "
            + humanReadableBytes(root.getFreeSpace()) + ".");
    }

    /** RocketMQ's UtilAll.getDiskPartitionSpaceUsedPercent: used / (used + usable), up to the next 0.01; -1 unknown. */
    static double usedRatio(File path) {
        long total = path.getTotalSpace();
        if (total <= 0) {
            return -1;
        }
        long used = total - path.getFreeSpace();
        long entire = used + path.getUsableSpace();
        long percent = used * 100 / entire + (used * 100 % entire != 0 ? 1 : 0);
        return percent / 100.0;
    }

    /** RocketMQ's MixAll.humanReadableByteCount with binary units: "512 B", "1.5 KiB", "3.0 GiB". */
    static String humanReadableBytes(long bytes) {
        int unit = 1024;
        if (bytes < unit) {
            return bytes + " B";
        }
        int exponent = (int) (Math.log(bytes) / Math.log(unit));
        return String.format("%.1f %siB", bytes / Math.pow(unit, exponent), "KMGTPE".charAt(exponent - 1));
    }

    /** RocketMQ's format: "[ 0 days, 1 hours, 2 minutes, 3 seconds ]". */
    static String runtime(long elapsedMs) {
        long seconds = Math.max(0, elapsedMs) / 1000;
        return "[ " + seconds / 86_400 + " days, " + seconds % 86_400 / 3_600 + " hours, " + seconds % 3_600 / 60
            + " minutes, " + seconds % 60 + " seconds ]";
    }
}
