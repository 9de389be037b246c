package io.vrmq.remoting.message;

/** Message property names of RocketMQ (MessageConst) that this project reads or writes. */
public final class MessageConst {
    public static final String KEYS = "KEYS";
    public static final String TAGS = "TAGS";
    public static final String WAIT_STORE_MSG_OK = "WAIT";
    public static final String DELAY_TIME_LEVEL = "DELAY";
    public static final String RETRY_TOPIC = "RETRY_TOPIC";
    public static final String REAL_TOPIC = "REAL_TOPIC";
    public static final String REAL_QUEUE_ID = "REAL_QID";
    public static final String TRANSACTION_PREPARED = "TRAN_MSG";
    public static final String PRODUCER_GROUP = "PGROUP";
    public static final String MIN_OFFSET = "MIN_OFFSET";
    public static final String MAX_OFFSET = "MAX_OFFSET";
    public static final String UNIQ_CLIENT_MESSAGE_ID_KEYIDX = "UNIQ_KEY";
    public static final String RECONSUME_TIME = "RECONSUME_TIME";
    public static final String MAX_RECONSUME_TIMES = "MAX_RECONSUME_TIMES";
    public static final String ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID";
    public static final String CLUSTER = "CLUSTER";
    public static final String MSG_REGION = "MSG_REGION";
    public static final String TRACE_SWITCH = "TRACE_ON";
    public static final String DLQ_ORIGIN_TOPIC = "DLQ_ORIGIN_TOPIC";
    public static final String DLQ_ORIGIN_MESSAGE_ID = "DLQ_ORIGIN_MESSAGE_ID";
    public static final String TIMER_DELIVER_MS = "TIMER_DELIVER_MS";
    public static final String TIMER_DELAY_SEC = "TIMER_DELAY_SEC";
    public static final String TIMER_DELAY_MS = "TIMER_DELAY_MS";
    public static final String TIMER_OUT_MS = "TIMER_OUT_MS";
    /** On a recall's delete record in the timer topic: the key of the held message it cancels. */
    public static final String TIMER_DEL_UNIQKEY = "TIMER_DEL_UNIQKEY";
    public static final String START_DELIVER_TIME = "__STARTDELIVERTIME";
    public static final String TRANSACTION_ID = "__transactionId__";
    /** POP: the message's receipt (extra info), set by the broker on retry messages and by the client. */
    public static final String POP_CK = "POP_CK";
    /** POP: when the message was first popped, kept across redeliveries. */
    public static final String FIRST_POP_TIME = "1ST_POP_TIME";
    /** POP: the group whose unacked pop put this message into its retry topic. */
    public static final String ORIGIN_GROUP = "ORIGIN_GROUP";

    private MessageConst() {
    }
}
