package io.vrmq.broker.transaction;

import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.client.ClientChannel;
import io.vrmq.broker.client.ClientRegistry;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageToStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Asks a producer for a transaction's state: a oneway CHECK_TRANSACTION_STATE (39) to one live connection of the
 * half message's producer group (PGROUP), known from heartbeats, with RocketMQ's CheckTransactionStateRequestHeader
 * and the message as body ({@link CheckMessageBody}). The producer answers later with END_TRANSACTION and
 * fromTransactionCheck=true, naming the copy this check stored. With no producer of the group connected nothing is
 * sent (RocketMQ logs the same): the next run asks again, until transactionCheckMax. Thread-safe.
 */
final class TransactionCheckSender {
    private static final Logger log = LoggerFactory.getLogger(TransactionCheckSender.class);

    private final ClientRegistry clients;
    private final String brokerName;

    TransactionCheckSender(ClientRegistry clients, String brokerName) {
        this.clients = clients;
        this.brokerName = brokerName;
    }

    /** Sends the check for {@code copy}, just stored as {@code stored}, unless no producer is there to ask. */
    void send(MessageToStore copy, Map<String, String> properties, AppendResult stored) {
        String realTopic = properties.get(MessageConst.REAL_TOPIC);
        int realQueueId = HalfMessages.realQueueId(properties);
        if (realTopic == null || realQueueId < 0) {
            log.error("half message {} names no usable REAL_TOPIC/REAL_QID ({}/{}): its producer cannot be asked",
                stored.offsetMsgId(), realTopic, properties.get(MessageConst.REAL_QUEUE_ID));
            return;
        }
        String group = properties.get(MessageConst.PRODUCER_GROUP);
        ClientChannel producer = group == null ? null : anyLive(clients.producers(group));
        if (producer == null) {
            log.warn("no producer of group {} connected to check the transaction of message {}", group,
                properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
            return;
        }
        RemotingCommand check = request(copy, properties, stored, realTopic, realQueueId);
        String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        producer.connection().invokeOneway(check).onFailure(error -> log.warn("check of transaction {} to {} failed: {}",
            uniqKey, producer.clientId(), error.toString()));
    }

    private static ClientChannel anyLive(List<ClientChannel> channels) {
        List<ClientChannel> live = channels.stream().filter(channel -> !channel.connection().isClosed()).toList();
        return live.isEmpty() ? null : live.get(ThreadLocalRandom.current().nextInt(live.size()));
    }

    /** The request; its header topic is the half topic, as RocketMQ's (the producer echoes it in its answer). */
    private RemotingCommand request(MessageToStore copy, Map<String, String> properties, AppendResult stored,
                                    String realTopic, int realQueueId) {
        Map<String, String> header = new HashMap<>();
        header.put("topic", copy.topic());
        header.put("tranStateTableOffset", Long.toString(stored.queueOffset()));
        header.put("commitLogOffset", Long.toString(stored.commitLogOffset()));
        header.put("offsetMsgId", stored.offsetMsgId());
        header.put("bname", brokerName);
        String uniqKey = properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        if (uniqKey != null) {
            header.put("msgId", uniqKey);
            header.put("transactionId", uniqKey);
        }
        byte[] body = CheckMessageBody.encode(copy, stored, realTopic, realQueueId);
        return RemotingCommand.request(RequestCode.CHECK_TRANSACTION_STATE, header, Buffer.buffer(body));
    }
}
