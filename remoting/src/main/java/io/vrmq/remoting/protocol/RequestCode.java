package io.vrmq.remoting.protocol;

/**
 * Request codes of Apache RocketMQ's remoting protocol: the ones this project's roles send or answer.
 * Numbers are the protocol's; names are RocketMQ's so that logs and its documentation line up.
 */
public final class RequestCode {
    public static final int SEND_MESSAGE = 10;
    public static final int PULL_MESSAGE = 11;
    public static final int QUERY_MESSAGE = 12;
    public static final int QUERY_BROKER_OFFSET = 13;
    public static final int QUERY_CONSUMER_OFFSET = 14;
    public static final int UPDATE_CONSUMER_OFFSET = 15;
    public static final int UPDATE_AND_CREATE_TOPIC = 17;
    public static final int GET_ALL_TOPIC_CONFIG = 21;
    public static final int GET_TOPIC_CONFIG_LIST = 22;
    public static final int GET_TOPIC_NAME_LIST = 23;
    public static final int UPDATE_BROKER_CONFIG = 25;
    public static final int GET_BROKER_CONFIG = 26;
    public static final int TRIGGER_DELETE_FILES = 27;
    public static final int GET_BROKER_RUNTIME_INFO = 28;
    public static final int SEARCH_OFFSET_BY_TIMESTAMP = 29;
    public static final int GET_MAX_OFFSET = 30;
    public static final int GET_MIN_OFFSET = 31;
    public static final int GET_EARLIEST_MSG_STORETIME = 32;
    public static final int VIEW_MESSAGE_BY_ID = 33;
    public static final int HEART_BEAT = 34;
    public static final int UNREGISTER_CLIENT = 35;
    public static final int CONSUMER_SEND_MSG_BACK = 36;
    public static final int END_TRANSACTION = 37;
    public static final int GET_CONSUMER_LIST_BY_GROUP = 38;
    public static final int CHECK_TRANSACTION_STATE = 39;
    public static final int NOTIFY_CONSUMER_IDS_CHANGED = 40;
    public static final int LOCK_BATCH_MQ = 41;
    public static final int UNLOCK_BATCH_MQ = 42;
    public static final int GET_ALL_CONSUMER_OFFSET = 43;
    public static final int GET_ALL_DELAY_OFFSET = 45;
    public static final int CHECK_CLIENT_CONFIG = 46;
    public static final int GET_CLIENT_CONFIG = 47;
    public static final int PUT_KV_CONFIG = 100;
    public static final int GET_KV_CONFIG = 101;
    public static final int DELETE_KV_CONFIG = 102;
    public static final int REGISTER_BROKER = 103;
    public static final int UNREGISTER_BROKER = 104;
    public static final int GET_ROUTEINFO_BY_TOPIC = 105;
    public static final int GET_BROKER_CLUSTER_INFO = 106;
    public static final int UPDATE_AND_CREATE_SUBSCRIPTIONGROUP = 200;
    public static final int GET_ALL_SUBSCRIPTIONGROUP_CONFIG = 201;
    public static final int GET_TOPIC_STATS_INFO = 202;
    public static final int GET_CONSUMER_CONNECTION_LIST = 203;
    public static final int GET_PRODUCER_CONNECTION_LIST = 204;
    public static final int WIPE_WRITE_PERM_OF_BROKER = 205;
    public static final int GET_ALL_TOPIC_LIST_FROM_NAMESERVER = 206;
    public static final int DELETE_SUBSCRIPTIONGROUP = 207;
    public static final int GET_CONSUME_STATS = 208;
    public static final int DELETE_TOPIC_IN_BROKER = 215;
    public static final int DELETE_TOPIC_IN_NAMESRV = 216;
    public static final int REGISTER_TOPIC_IN_NAMESRV = 217;
    public static final int GET_KVLIST_BY_NAMESPACE = 219;
    public static final int RESET_CONSUMER_CLIENT_OFFSET = 220;
    public static final int GET_CONSUMER_STATUS_FROM_CLIENT = 221;
    public static final int INVOKE_BROKER_TO_RESET_OFFSET = 222;
    public static final int INVOKE_BROKER_TO_GET_CONSUMER_STATUS = 223;
    public static final int GET_TOPICS_BY_CLUSTER = 224;
    public static final int QUERY_TOPIC_CONSUME_BY_WHO = 300;
    public static final int QUERY_TOPICS_BY_CONSUMER = 343;
    public static final int REGISTER_FILTER_SERVER = 301;
    public static final int QUERY_CONSUME_TIME_SPAN = 303;
    public static final int GET_SYSTEM_TOPIC_LIST_FROM_NS = 304;
    public static final int GET_SYSTEM_TOPIC_LIST_FROM_BROKER = 305;
    public static final int GET_CONSUMER_RUNNING_INFO = 307;
    public static final int CONSUME_MESSAGE_DIRECTLY = 309;
    public static final int SEND_MESSAGE_V2 = 310;
    public static final int GET_UNIT_TOPIC_LIST = 311;
    public static final int GET_HAS_UNIT_SUB_TOPIC_LIST = 312;
    public static final int GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST = 313;
    public static final int GET_BROKER_CONSUME_STATS = 317;
    public static final int UPDATE_NAMESRV_CONFIG = 318;
    public static final int GET_NAMESRV_CONFIG = 319;
    public static final int SEND_BATCH_MESSAGE = 320;
    public static final int QUERY_CONSUME_QUEUE = 321;
    public static final int QUERY_DATA_VERSION = 322;
    public static final int SEND_REPLY_MESSAGE = 324;
    public static final int SEND_REPLY_MESSAGE_V2 = 325;
    public static final int PUSH_REPLY_MESSAGE_TO_CLIENT = 326;
    public static final int ADD_WRITE_PERM_OF_BROKER = 327;
    public static final int GET_ALL_PRODUCER_INFO = 328;
    public static final int GET_TOPIC_CONFIG = 351;
    public static final int GET_SUBSCRIPTIONGROUP_CONFIG = 352;
    public static final int LITE_PULL_MESSAGE = 361;
    /** RocketMQ 5.x: cancel a timer (delay) message not yet delivered, named by the recall handle of its send. */
    public static final int RECALL_MESSAGE = 370;
    /** Server-side load balancing (RocketMQ 5): the queues a client of a group should consume, and how. */
    public static final int QUERY_ASSIGNMENT = 400;
    /** Admin: a group consumes a topic by PULL or by POP (mqadmin setConsumeMode). */
    public static final int SET_MESSAGE_REQUEST_MODE = 401;
    /** A slave copies its master's request modes. */
    public static final int GET_ALL_MESSAGE_REQUEST_MODE = 402;
    public static final int GET_BROKER_MEMBER_GROUP = 901;
    /** Broker to controller (every second, oneway) and, with slave-acting-master, to NameServers. */
    public static final int BROKER_HEARTBEAT = 904;
    public static final int GET_BROKER_HA_STATUS = 907;
    // Controller mode (RocketMQ 5): broker and admin to controller, controller to broker (1008).
    public static final int CONTROLLER_ALTER_SYNC_STATE_SET = 1001;
    public static final int CONTROLLER_ELECT_MASTER = 1002;
    public static final int CONTROLLER_REGISTER_BROKER = 1003;
    public static final int CONTROLLER_GET_REPLICA_INFO = 1004;
    public static final int CONTROLLER_GET_METADATA_INFO = 1005;
    public static final int CONTROLLER_GET_SYNC_STATE_DATA = 1006;
    /** Admin to a broker in controller mode: its epoch file. */
    public static final int GET_BROKER_EPOCH_CACHE = 1007;
    /** Controller to broker, oneway, after an election. */
    public static final int NOTIFY_BROKER_ROLE_CHANGED = 1008;
    public static final int UPDATE_CONTROLLER_CONFIG = 1009;
    public static final int GET_CONTROLLER_CONFIG = 1010;
    public static final int CLEAN_BROKER_DATA = 1011;
    public static final int CONTROLLER_GET_NEXT_BROKER_ID = 1012;
    public static final int CONTROLLER_APPLY_BROKER_ID = 1013;

    // POP consumption (RocketMQ 5): the broker hands out messages that stay invisible until acked or revived.
    public static final int POP_MESSAGE = 200050;
    public static final int ACK_MESSAGE = 200051;
    public static final int PEEK_MESSAGE = 200052;
    public static final int CHANGE_MESSAGE_INVISIBLETIME = 200053;
    public static final int NOTIFICATION = 200054;
    public static final int POLLING_INFO = 200055;
    public static final int BATCH_ACK_MESSAGE = 200151;

    // ACL 2.0 administration (broker): users and their ACLs.
    public static final int AUTH_CREATE_USER = 3001;
    public static final int AUTH_UPDATE_USER = 3002;
    public static final int AUTH_DELETE_USER = 3003;
    public static final int AUTH_GET_USER = 3004;
    public static final int AUTH_LIST_USER = 3005;
    public static final int AUTH_CREATE_ACL = 3006;
    public static final int AUTH_UPDATE_ACL = 3007;
    public static final int AUTH_DELETE_ACL = 3008;
    public static final int AUTH_GET_ACL = 3009;
    public static final int AUTH_LIST_ACL = 3010;

    private RequestCode() {
    }
}
