package io.vrmq.broker.grpc;

import java.util.Set;

/**
 * The message property names RocketMQ reserves for itself (its MessageConst.STRING_HASH_SET and the names the proxy
 * adds). A gRPC producer may not use one as a user property (ILLEGAL_MESSAGE_PROPERTY_KEY), and a gRPC consumer
 * gets every other property as a user property. Stateless.
 */
final class SystemPropertyNames {
    static final String SHARDING_KEY = "__SHARDINGKEY";
    static final String BORN_HOST = "__BORNHOST";
    static final String TRACE_CONTEXT = "TRACE_CONTEXT";
    static final String CHECK_IMMUNITY_TIME_IN_SECONDS = "CHECK_IMMUNITY_TIME_IN_SECONDS";

    private static final Set<String> NAMES = Set.of(
        "TRACE_ON", "MSG_REGION", "KEYS", "TAGS", "WAIT", "DELAY", "RETRY_TOPIC", "REAL_TOPIC", "REAL_QID",
        "TRAN_MSG", "PGROUP", "MIN_OFFSET", "MAX_OFFSET", "BUYER_ID", "ORIGIN_MESSAGE_ID", "TRANSFER_FLAG",
        "CORRECTION_FLAG", "MQ2_FLAG", "RECONSUME_TIME", "UNIQ_KEY", "MAX_RECONSUME_TIMES", "CONSUME_START_TIME",
        "POP_CK", "POP_CK_OFFSET", "1ST_POP_TIME", "TRAN_PREPARED_QUEUE_OFFSET", "DUP_INFO",
        "EXTEND_UNIQ_INFO", "INSTANCE_ID", "CORRELATION_ID", "REPLY_TO_CLIENT", "TTL", "ARRIVE_TIME",
        "PUSH_REPLY_TIME", "CLUSTER", "MSG_TYPE", "__transactionId__", "TRANSACTION_CHECK_TIMES",
        CHECK_IMMUNITY_TIME_IN_SECONDS, SHARDING_KEY, "__STARTDELIVERTIME", "TIMER_DELIVER_MS", "TIMER_DELAY_SEC",
        "TIMER_DELAY_MS", "TIMER_OUT_MS", "TIMER_ENQUEUE_MS", "TIMER_DEQUEUE_MS", "TIMER_ROLL_TIMES",
        "TIMER_DEL_UNIQKEY", "BORN_TIMESTAMP", BORN_HOST, TRACE_CONTEXT, "DLQ_ORIGIN_TOPIC", "DLQ_ORIGIN_MESSAGE_ID",
        "ORIGIN_GROUP", "INNER_NUM", "INNER_BASE", "INNER_MULTI_DISPATCH", "INNER_MULTI_QUEUE_OFFSET",
        "_SYS_MSG_PRIORITY_", "__LITE_TOPIC", "RECALL_HANDLE", "CRC32");

    private SystemPropertyNames() {
    }

    static boolean isSystem(String name) {
        return NAMES.contains(name);
    }
}
