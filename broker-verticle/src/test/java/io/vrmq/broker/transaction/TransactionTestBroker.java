package io.vrmq.broker.transaction;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.broker.BrokerVerticle;
import io.vrmq.broker.TestBrokerRequests;
import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A broker deployed for one transaction test (no NameServer, a small store in the test's temp dir) and a client that
 * sends half messages and ends transactions as the official producer does, and records the CHECK_TRANSACTION_STATE
 * requests the broker sends it once it heartbeated as producer group {@link #GROUP}. Can be restarted on its store.
 */
final class TransactionTestBroker {
    static final String GROUP = "PG";
    static final String TOPIC = "TxTopic";

    private final Vertx vertx;
    private final JsonObject config;
    private final RemotingClient client;
    private final List<RemotingCommand> checks = new CopyOnWriteArrayList<>();
    private BrokerVerticle verticle;
    private String deploymentId;

    private TransactionTestBroker(Vertx vertx, JsonObject config) {
        this.vertx = vertx;
        this.config = config;
        ProcessorTable producerSide = ProcessorTable.builder().register(RequestCode.CHECK_TRANSACTION_STATE,
            (connection, request) -> {
                checks.add(request);
                return Future.succeededFuture();
            }).build();
        this.client = new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000),
            new RemotingLimits(16 * 1024 * 1024, 1024 * 1024, 3_000, 1_024), producerSide, RemotingObserver.NONE);
    }

    /** A broker with {@code overrides} (transactionTimeOut, transactionCheckInterval, ...) over the test defaults. */
    static Future<TransactionTestBroker> start(Vertx vertx, Path storeDir, JsonObject overrides) {
        TransactionTestBroker broker = new TransactionTestBroker(vertx,
            TestBrokerRequests.config(storeDir).mergeIn(overrides));
        return broker.deploy().map(broker);
    }

    private Future<Void> deploy() {
        verticle = new BrokerVerticle(config);
        return vertx.deployVerticle(verticle).map(id -> {
            deploymentId = id;
            return null;
        });
    }

    /** Clean stop, then a new broker on the same store directory (a new port, a new client connection). */
    Future<TransactionTestBroker> restart() {
        String oldAddress = address();
        return vertx.undeploy(deploymentId)
            .compose(stopped -> client.disconnect(oldAddress).otherwise((Void) null))
            .compose(disconnected -> deploy())
            .map(this);
    }

    Future<Void> stop() {
        return vertx.undeploy(deploymentId).eventually(client::close);
    }

    String address() {
        return "127.0.0.1:" + verticle.listenPort();
    }

    Future<RemotingCommand> invoke(int code, Map<String, String> extFields, Buffer body) {
        return client.invoke(address(), RemotingCommand.request(code, extFields, body));
    }

    /** A HEART_BEAT that registers this client's connection as a producer of {@link #GROUP}. */
    Future<RemotingCommand> heartbeat() {
        String body = TestBrokerRequests.heartbeatBody("127.0.0.1@tx-test", "CG_TX", TOPIC);
        return invoke(RequestCode.HEART_BEAT, Map.of(), Buffer.buffer(body)).map(TestBrokerRequests::requireSuccess);
    }

    /** A half message as the official TransactionMQProducer sends it: TRAN_MSG, PGROUP, prepared sysFlag. */
    Future<SentHalf> sendHalf(String body, Map<String, String> extraProperties) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageConst.KEYS, body + "-key");
        properties.put(MessageConst.TAGS, "TagTx");
        properties.put(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "UNIQ-" + body);
        properties.put(MessageConst.WAIT_STORE_MSG_OK, "true");
        properties.put(MessageConst.TRANSACTION_PREPARED, "true");
        properties.put(MessageConst.PRODUCER_GROUP, GROUP);
        properties.putAll(extraProperties);
        Map<String, String> header = TestBrokerRequests.sendHeader(TOPIC, 2, properties);
        header.put("f", Integer.toString(TransactionSysFlag.PREPARED_TYPE));
        header.put("m", "false");
        return invoke(RequestCode.SEND_MESSAGE_V2, header, Buffer.buffer(body))
            .map(TestBrokerRequests::requireSuccess)
            .map(response -> new SentHalf(response.ext("msgId"), Integer.parseInt(response.ext("queueId")),
                Long.parseLong(response.ext("queueOffset")), response.ext("transactionId"), "UNIQ-" + body));
    }

    /** END_TRANSACTION sent two-way (the client sends it oneway), so the test sees the broker's verdict. */
    Future<RemotingCommand> endTransaction(String producerGroup, long tranStateTableOffset, long commitLogOffset,
                                           int commitOrRollback, boolean isFromCheck, String msgId) {
        Map<String, String> header = new HashMap<>();
        header.put("topic", TOPIC);
        header.put("producerGroup", producerGroup);
        header.put("tranStateTableOffset", Long.toString(tranStateTableOffset));
        header.put("commitLogOffset", Long.toString(commitLogOffset));
        header.put("commitOrRollback", Integer.toString(commitOrRollback));
        header.put("fromTransactionCheck", Boolean.toString(isFromCheck));
        header.put("msgId", msgId);
        header.put("transactionId", msgId);
        return invoke(RequestCode.END_TRANSACTION, header, null);
    }

    /** Ends the transaction of {@code sent} as its producer does after the local transaction. */
    Future<RemotingCommand> end(SentHalf sent, int commitOrRollback) {
        return endTransaction(GROUP, sent.queueOffset(), sent.commitLogOffset(), commitOrRollback, false,
            sent.uniqKey());
    }

    /** PULL_MESSAGE from {@code offset}, subscription "*", no suspend: the stored messages found (maybe none). */
    Future<List<StoredMessage>> pull(String topic, int queueId, long offset) {
        return invoke(RequestCode.PULL_MESSAGE, TestBrokerRequests.pullHeader("CG_TX", topic, queueId, offset), null)
            .map(response -> TestBrokerRequests.pulledMessages(response, topic + "-" + queueId));
    }

    /** Polls {@code topic} queue {@code queueId} from 0 until it holds {@code count} messages, for {@code maxMs}. */
    Future<List<StoredMessage>> awaitMessages(String topic, int queueId, int count, long maxMs) {
        return poll(() -> pull(topic, queueId, 0), found -> found.size() >= count, maxMs);
    }

    /** The check progress on {@code topic}: CID_RMQ_SYS_TRANS's offset, as QUERY_CONSUMER_OFFSET answers it. */
    Future<Long> checkProgress(String topic) {
        Map<String, String> header = Map.of("consumerGroup", TransactionNames.SYSTEM_GROUP, "topic", topic,
            "queueId", "0");
        return invoke(RequestCode.QUERY_CONSUMER_OFFSET, header, null)
            .map(response -> response.code() == ResponseCode.SUCCESS ? Long.parseLong(response.ext("offset")) : -1L);
    }

    /** The check requests received so far. */
    List<RemotingCommand> checks() {
        return List.copyOf(checks);
    }

    Future<List<RemotingCommand>> awaitChecks(int count, long maxMs) {
        return poll(() -> Future.succeededFuture(checks()), received -> received.size() >= count, maxMs);
    }

    Future<Void> pause(long delayMs) {
        return TestBrokerRequests.pause(vertx, delayMs);
    }

    <T> Future<T> poll(Supplier<Future<T>> call, Predicate<T> isDone, long maxMs) {
        return TestBrokerRequests.pollFor(vertx, call, isDone, maxMs);
    }

    static String bodyText(StoredMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    /** What the send reply said about a half message, and its commit-log offset (from the offset msgId). */
    record SentHalf(String offsetMsgId, int queueId, long queueOffset, String transactionId, String uniqKey) {
        long commitLogOffset() {
            return Long.parseUnsignedLong(offsetMsgId.substring(offsetMsgId.length() - 16), 16);
        }
    }
}
