package io.vrmq.broker.reply;

import io.vertx.core.Future;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.processor.SendRequest;
import io.vrmq.broker.processor.TopicResolver;
import io.vrmq.broker.trace.TraceStamp;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SEND_REPLY_MESSAGE (324) and SEND_REPLY_MESSAGE_V2 (325): a consumer's answer to a request
 * ({@code MessageUtil.createReplyMessage}, topic {@code <cluster>_REPLY_TOPIC}). As in RocketMQ, the broker pushes it
 * with PUSH_REPLY_MESSAGE_TO_CLIENT (326) to the connection of the producer named by {@code REPLY_TO_CLIENT}, then
 * (storeReplyMessageEnable) stores it; the push decides the answer: SUCCESS when the requester took it, else
 * SYSTEM_ERROR with RocketMQ's remark (the requester is gone, or refused), which the replying producer retries like
 * any send. Checks and the push run on the event loop, the append on the store's writer.
 */
public final class ReplyMessageProcessor {
    private static final Logger log = LoggerFactory.getLogger(ReplyMessageProcessor.class);
    static final String REPLY_TO_CLIENT = "REPLY_TO_CLIENT";
    static final String PUSH_REPLY_TIME = "PUSH_REPLY_TIME";

    private final BrokerContext broker;
    private final TopicResolver topics;
    private final ReplyConfig config;

    public ReplyMessageProcessor(BrokerContext broker, TopicResolver topics, ReplyConfig config) {
        this.broker = broker;
        this.topics = topics;
        this.config = config;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(this::reply, RequestCode.SEND_REPLY_MESSAGE, RequestCode.SEND_REPLY_MESSAGE_V2);
    }

    private Future<RemotingCommand> reply(RemotingConnection connection, RemotingCommand request) {
        SendRequest send = SendRequest.decode(request);
        if (!request.hasBody()) {
            throw new RemotingCommandException(ResponseCode.MESSAGE_ILLEGAL, "message body is empty");
        }
        TopicConfig topic = topics.forSend(send.topic(), send.defaultTopic(), send.defaultTopicQueueNums(), 0);
        int queueId = send.queueId() < 0 ? ThreadLocalRandom.current().nextInt(topic.writeQueueNums())
            : TopicResolver.queueFor(topic, send.queueId(), send.producerGroup());
        Map<String, String> properties = MessageProperties.parse(send.properties());
        TraceStamp.stamp(properties);
        String storedProperties = MessageProperties.format(properties);
        byte[] body = request.body().getBytes();
        InetSocketAddress bornHost = bornHost(connection);
        return push(send, properties, body, bornHost)
            .compose(pushed -> store(send, topic.topicName(), queueId, storedProperties, body, bornHost)
                .map(stored -> answer(request, pushed, stored, queueId)));
    }

    /** Null when the push succeeded, else RocketMQ's remark for why not. */
    private Future<String> push(SendRequest send, Map<String, String> properties, byte[] body,
                                InetSocketAddress bornHost) {
        String requesterId = properties.get(REPLY_TO_CLIENT);
        if (requesterId == null) {
            log.warn("{} is null, can not reply message", REPLY_TO_CLIENT);
            return Future.succeededFuture("reply message properties[" + REPLY_TO_CLIENT + "] is null");
        }
        ClientChannel requester = findProducer(requesterId);
        if (requester == null) {
            String remark = "push reply message fail, channel of <" + requesterId + "> not found.";
            log.warn(remark);
            return Future.succeededFuture(remark);
        }
        Map<String, String> pushed = new HashMap<>(properties);
        pushed.put(PUSH_REPLY_TIME, Long.toString(System.currentTimeMillis()));
        RemotingCommand push = RemotingCommand.request(RequestCode.PUSH_REPLY_MESSAGE_TO_CLIENT,
            pushHeader(send, MessageProperties.format(pushed), bornHost), io.vertx.core.buffer.Buffer.buffer(body));
        String failed = "push reply message to " + requesterId + "fail.";
        return requester.connection().invoke(push, config.pushReplyTimeoutMs())
            .map(response -> {
                if (response.code() == ResponseCode.SUCCESS) {
                    return (String) null;
                }
                log.warn("push reply message to <{}> return fail, response remark: {}", requesterId,
                    response.remark());
                return failed;
            })
            .recover(error -> {
                log.warn("push reply message to <{}> at {} fail: {}", requesterId,
                    requester.connection().remoteAddress(), error.toString());
                return Future.succeededFuture(failed);
            });
    }

    /** The requester: a producer connection registered by heartbeat under that client id. */
    private ClientChannel findProducer(String clientId) {
        for (String group : broker.clients().producerGroupNames()) {
            for (ClientChannel channel : broker.clients().producers(group)) {
                if (channel.clientId().equals(clientId) && !channel.connection().isClosed()) {
                    return channel;
                }
            }
        }
        return null;
    }

    /** ReplyMessageRequestHeader: the send's fields, plus where it came from and when the broker saw it. */
    private Map<String, String> pushHeader(SendRequest send, String properties, InetSocketAddress bornHost) {
        Map<String, String> header = new HashMap<>();
        header.put("producerGroup", send.producerGroup());
        header.put("topic", send.topic());
        header.put("defaultTopic", send.defaultTopic());
        header.put("defaultTopicQueueNums", Integer.toString(send.defaultTopicQueueNums()));
        header.put("queueId", Integer.toString(send.queueId()));
        header.put("sysFlag", Integer.toString(send.sysFlag()));
        header.put("bornTimestamp", Long.toString(send.bornTimestamp()));
        header.put("flag", Integer.toString(send.flag()));
        header.put("properties", properties);
        header.put("reconsumeTimes", Integer.toString(send.reconsumeTimes()));
        header.put("unitMode", "false");
        header.put("bornHost", bornHost.getAddress().getHostAddress() + ":" + bornHost.getPort());
        header.put("storeHost", broker.identity().brokerAddr());
        header.put("storeTimestamp", Long.toString(System.currentTimeMillis()));
        return header;
    }

    /** The stored reply, or null when storing is off or it failed (the push's outcome is the answer anyway). */
    private Future<AppendResult> store(SendRequest send, String topic, int queueId, String properties, byte[] body,
                                       InetSocketAddress bornHost) {
        if (!config.storeReplyMessageEnable() || broker.replication().isSlave()) {
            return Future.succeededFuture(null);
        }
        MessageToStore message = new MessageToStore(topic, queueId, send.flag(), body, properties, send.sysFlag(),
            send.bornTimestamp(), bornHost, send.reconsumeTimes(), 0);
        return broker.store().append(message)
            .compose(result -> !result.isOk() ? Future.succeededFuture((AppendResult) null)
                : broker.store().durability(result).map(flushed -> result))
            .recover(error -> {
                log.warn("storing a reply to {} failed: {}", topic, error.toString());
                return Future.succeededFuture(null);
            });
    }

    private static RemotingCommand answer(RemotingCommand request, String pushFailure, AppendResult stored,
                                          int queueId) {
        Map<String, String> header = new HashMap<>();
        header.put("msgId", stored == null ? "0" : stored.offsetMsgId());
        header.put("queueId", Integer.toString(queueId));
        header.put("queueOffset", Long.toString(stored == null ? 0 : stored.queueOffset()));
        TraceStamp.stampReply(header);
        int code = pushFailure == null ? ResponseCode.SUCCESS : ResponseCode.SYSTEM_ERROR;
        return RemotingCommand.response(request, code, pushFailure, header, null);
    }

    private static InetSocketAddress bornHost(RemotingConnection connection) {
        io.vertx.core.net.SocketAddress address = connection.remoteSocketAddress();
        String host = address.hostAddress() != null ? address.hostAddress() : address.host();
        return new InetSocketAddress(host, Math.max(address.port(), 0));
    }
}
