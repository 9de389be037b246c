package io.vrmq.client.producer;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vrmq.client.ClientException;
import io.vrmq.client.Message;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.message.BodyCompression;
import io.vrmq.remoting.message.MessageProperties;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * RocketMQ's request-reply, the requester's side and the replier's helper. A request carries CORRELATION_ID,
 * REPLY_TO_CLIENT (this client's id) and TTL; the broker pushes the reply (PUSH_REPLY_MESSAGE_TO_CLIENT, 326) to
 * this client's connection, and {@link #onReply} completes the waiting request by its correlation id. A request with
 * no reply within its timeout fails with a {@link ClientException}. A replier builds its answer with
 * {@link #replyTo} and sends it like any message (the producer then uses SEND_REPLY_MESSAGE_V2). Not thread-safe:
 * the client's context only.
 */
public final class RequestReply {
    public static final String CORRELATION_ID = "CORRELATION_ID";
    public static final String REPLY_TO_CLIENT = "REPLY_TO_CLIENT";
    public static final String TTL = "TTL";
    public static final String MSG_TYPE = "MSG_TYPE";
    public static final String REPLY_MESSAGE_FLAG = "reply";
    private static final String CLUSTER = "CLUSTER";
    private static final String REPLY_TOPIC_POSTFIX = "_REPLY_TOPIC";

    private static final int COMPRESSED_FLAG = 0x1;

    private final Vertx vertx;
    private final int maxBodyBytes;
    private final Map<String, Promise<ReceivedMessage>> waiting = new HashMap<>();

    /** @param maxBodyBytes the largest reply body accepted after inflating a compressed one */
    public RequestReply(Vertx vertx, int maxBodyBytes) {
        this.vertx = vertx;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The request as sent, with its correlation id, and the future of its reply (failed after {@code timeoutMs}). */
    public Pending open(Message request, String clientId, long timeoutMs) {
        String correlationId = UUID.randomUUID().toString();
        Promise<ReceivedMessage> reply = Promise.promise();
        waiting.put(correlationId, reply);
        long timer = vertx.setTimer(timeoutMs, id -> {
            if (waiting.remove(correlationId) != null) {
                reply.tryFail(new ClientException("request to " + request.topic() + " got no reply within "
                    + timeoutMs + " ms (correlation id " + correlationId + ")"));
            }
        });
        reply.future().onComplete(done -> vertx.cancelTimer(timer));
        Message sent = request.withProperty(CORRELATION_ID, correlationId).withProperty(REPLY_TO_CLIENT, clientId)
            .withProperty(TTL, Long.toString(timeoutMs));
        return new Pending(sent, correlationId, reply.future());
    }

    /** The send of a request failed: its reply will not come. */
    public void abandon(String correlationId, Throwable cause) {
        Promise<ReceivedMessage> reply = waiting.remove(correlationId);
        if (reply != null) {
            reply.tryFail(cause);
        }
    }

    /** A PUSH_REPLY_MESSAGE_TO_CLIENT request: completes the waiting request; unknown ids are late or foreign. */
    public boolean onReply(RemotingCommand push) {
        HeaderFields header = push.header();
        Map<String, String> properties = MessageProperties.parse(header.optionalString("properties"));
        Promise<ReceivedMessage> reply = waiting.remove(properties.get(CORRELATION_ID));
        if (reply == null) {
            return false;
        }
        byte[] body = push.body() == null ? new byte[0] : push.body().getBytes();
        int sysFlag = header.optionalInt("sysFlag", 0);
        if ((sysFlag & COMPRESSED_FLAG) != 0) {
            body = BodyCompression.inflate(body, maxBodyBytes);
        }
        ReceivedMessage message = new ReceivedMessage(header.requiredString("topic"), header.optionalInt("queueId", 0),
            0, 0, header.optionalInt("flag", 0), sysFlag, body, properties,
            header.optionalLong("bornTimestamp", 0), address(header.optionalString("bornHost")),
            header.optionalLong("storeTimestamp", 0), address(header.optionalString("storeHost")),
            header.optionalInt("reconsumeTimes", 0), 0, body.length, 0, null, null);
        reply.tryComplete(message);
        return true;
    }

    /**
     * The reply to {@code request} (RocketMQ's MessageUtil.createReplyMessage): to {@code <cluster>_REPLY_TOPIC} of
     * the request's cluster, with its correlation id, requester and TTL.
     */
    public static Message replyTo(ReceivedMessage request, byte[] body) {
        String cluster = request.property(CLUSTER);
        if (cluster == null || request.property(CORRELATION_ID) == null) {
            throw new IllegalArgumentException("not a request message (no CLUSTER or CORRELATION_ID property)");
        }
        Message reply = Message.of(cluster + REPLY_TOPIC_POSTFIX, body).withProperty(MSG_TYPE, REPLY_MESSAGE_FLAG)
            .withProperty(CORRELATION_ID, request.property(CORRELATION_ID));
        String requester = request.property(REPLY_TO_CLIENT);
        if (requester != null) {
            reply = reply.withProperty(REPLY_TO_CLIENT, requester);
        }
        String ttl = request.property(TTL);
        return ttl == null ? reply : reply.withProperty(TTL, ttl);
    }

    private static InetSocketAddress address(String hostPort) {
        if (hostPort == null || hostPort.lastIndexOf(':') < 0) {
            return new InetSocketAddress(0);
        }
        int colon = hostPort.lastIndexOf(':');
        return InetSocketAddress.createUnresolved(hostPort.substring(0, colon),
            Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /** A request on its way: the message to send and the future of its reply. */
    public record Pending(Message message, String correlationId, Future<ReceivedMessage> reply) {
    }
}
