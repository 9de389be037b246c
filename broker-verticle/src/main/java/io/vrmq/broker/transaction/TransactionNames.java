package io.vrmq.broker.transaction;

import io.vrmq.broker.topic.TopicNames;

/**
 * RocketMQ's names for transactional messages (TopicValidator, MixAll, MessageConst and TransactionalMessageUtil of
 * 5.5.0): the system topics that hold half messages and their resolutions, the system group whose consume offsets
 * are the check service's progress, and the message properties the broker reads and writes.
 */
public final class TransactionNames {
    /** Where half (prepared) messages wait for their commit or rollback; one queue. */
    public static final String HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    /** One op record per resolved half message ("op" for operation, as RocketMQ calls them); one queue. */
    public static final String OP_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    /** Where a half message goes once it was checked transactionCheckMax times without an answer. */
    public static final String CHECK_MAX_TIME_TOPIC = TopicNames.TRANS_CHECK_MAX_TIME_TOPIC;
    /** The only queue of the half and op topics (RocketMQ stores every half message to queue 0). */
    public static final int HALF_QUEUE_ID = 0;
    /** The system group whose consume offsets on the half and op topics record how far the checks got. */
    public static final String SYSTEM_GROUP = "CID_RMQ_SYS_TRANS";
    /** The tag of an op record ("d" for delete: the half message is done). */
    public static final String REMOVE_TAG = "d";
    /** Separator of the half queue offsets in an op record's body ("12," in 5.x, "12" in 4.x). */
    public static final String OFFSET_SEPARATOR = ",";

    /** How many times the broker checked this half message; written on the copy each check stores. */
    public static final String CHECK_TIMES = "TRANSACTION_CHECK_TIMES";
    /** A producer's own minimum age, in seconds, before the first check (never below transactionTimeOut). */
    public static final String CHECK_IMMUNITY_TIME_IN_SECONDS = "CHECK_IMMUNITY_TIME_IN_SECONDS";

    private TransactionNames() {
    }
}
