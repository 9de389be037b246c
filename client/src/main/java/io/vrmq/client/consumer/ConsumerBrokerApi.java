package io.vrmq.client.consumer;

import io.vertx.core.Future;
import io.vrmq.client.ClientException;
import io.vrmq.client.MessageQueue;
import io.vrmq.client.ReceivedMessage;
import io.vrmq.client.internal.ClientRuntime;
import io.vrmq.client.message.StoredRecordDecoder;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The consumer's requests to brokers, with the official client's headers and bodies: pull (11), offsets (14, 15,
 * 29, 30), send-back (36), queue locks (41, 42), group members (38). Each goes to the master of the queue's broker
 * group, found in the route cache. Confined to the consumer's context.
 */
public final class ConsumerBrokerApi {
    /** Pull sysFlag bits: commit offset, suspend (long poll), subscription in the request. */
    static final int PULL_FLAG_COMMIT_OFFSET = 1;
    static final int PULL_FLAG_SUSPEND = 1 << 1;
    static final int PULL_FLAG_SUBSCRIPTION = 1 << 2;

    private final ClientRuntime runtime;
    private final String group;
    private final int maxBodyBytes;

    public ConsumerBrokerApi(ClientRuntime runtime, String group, int maxBodyBytes) {
        this.runtime = runtime;
        this.group = group;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The master of the queue's broker group, refreshing the route once when it is not known. */
    public Future<String> masterAddr(MessageQueue queue) {
        String address = runtime.routes().masterAddr(queue.brokerName());
        if (address != null) {
            return Future.succeededFuture(address);
        }
        return runtime.routes().refresh(queue.topic()).compose(route -> {
            String refreshed = route.masterAddrs().get(queue.brokerName());
            return refreshed != null ? Future.succeededFuture(refreshed)
                : Future.failedFuture(new ClientException("broker " + queue.brokerName() + " has no master"));
        });
    }

    /**
     * @param commitOffset          the cached consume offset for the broker to store (0 or less: none)
     * @param isSubscriptionInPull  send the subscription along (the pull consumer), instead of relying on the one
     *                              the group's heartbeat registered (the push consumer, as the official one)
     */
    public Future<PullResult> pull(MessageQueue queue, long offset, int maxMessages, long commitOffset,
                                   SubscriptionData subscription, boolean isSubscriptionInPull, long suspendTimeoutMs,
                                   long timeoutMs) {
        Map<String, String> header = new HashMap<>();
        header.put("consumerGroup", group);
        header.put("topic", queue.topic());
        header.put("queueId", Integer.toString(queue.queueId()));
        header.put("queueOffset", Long.toString(offset));
        header.put("maxMsgNums", Integer.toString(maxMessages));
        int sysFlag = PULL_FLAG_SUSPEND | (commitOffset > 0 ? PULL_FLAG_COMMIT_OFFSET : 0)
            | (isSubscriptionInPull ? PULL_FLAG_SUBSCRIPTION : 0);
        header.put("sysFlag", Integer.toString(sysFlag));
        if (isSubscriptionInPull) {
            header.put("subscription", subscription.subString());
        }
        header.put("commitOffset", Long.toString(Math.max(commitOffset, 0)));
        header.put("suspendTimeoutMillis", Long.toString(suspendTimeoutMs));
        header.put("subVersion", Long.toString(subscription.subVersion()));
        header.put("expressionType", subscription.expressionType());
        return masterAddr(queue)
            .compose(address -> runtime.remoting().invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE,
                header, null), timeoutMs))
            .compose(response -> pullResult(queue, response));
    }

    /** The committed offset, or -1 when the broker has none (QUERY_NOT_FOUND). */
    public Future<Long> queryOffset(MessageQueue queue) {
        Map<String, String> header = queueHeader(queue);
        header.put("consumerGroup", group);
        header.put("setZeroIfNotFound", "true");
        return call(queue, RequestCode.QUERY_CONSUMER_OFFSET, header).compose(response -> {
            if (response.code() == ResponseCode.QUERY_NOT_FOUND) {
                return Future.succeededFuture(-1L);
            }
            return offsetOf(response);
        });
    }

    public Future<Long> maxOffset(MessageQueue queue) {
        return call(queue, RequestCode.GET_MAX_OFFSET, queueHeader(queue)).compose(ConsumerBrokerApi::offsetOf);
    }

    public Future<Long> minOffset(MessageQueue queue) {
        return call(queue, RequestCode.GET_MIN_OFFSET, queueHeader(queue)).compose(ConsumerBrokerApi::offsetOf);
    }

    public Future<Long> searchOffset(MessageQueue queue, long timestampMs) {
        Map<String, String> header = queueHeader(queue);
        header.put("timestamp", Long.toString(timestampMs));
        header.put("boundaryType", "lower");
        return call(queue, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, header).compose(ConsumerBrokerApi::offsetOf);
    }

    /** UPDATE_CONSUMER_OFFSET (15), answered: the offset is committed when this succeeds. */
    public Future<Void> commitOffset(MessageQueue queue, long offset) {
        return call(queue, RequestCode.UPDATE_CONSUMER_OFFSET, commitHeader(queue, offset))
            .compose(response -> succeeded(response, "commit offset of " + queue));
    }

    /** UPDATE_CONSUMER_OFFSET (15) oneway, as the official 5 s persist task sends it. */
    public Future<Void> commitOffsetOneway(MessageQueue queue, long offset) {
        return masterAddr(queue).compose(address -> runtime.remoting().invokeOneway(address,
            RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET, commitHeader(queue, offset), null)));
    }

    /** CONSUMER_SEND_MSG_BACK (36): the broker stores a copy for a later retry (or in the DLQ). */
    public Future<Void> sendBack(ReceivedMessage message, int delayLevel, int maxReconsumeTimes) {
        Map<String, String> header = new HashMap<>();
        header.put("offset", Long.toString(message.commitLogOffset()));
        header.put("group", group);
        header.put("delayLevel", Integer.toString(delayLevel));
        header.put("originMsgId", message.msgId());
        header.put("originTopic", message.topic());
        header.put("unitMode", "false");
        header.put("maxReconsumeTimes", Integer.toString(maxReconsumeTimes));
        MessageQueue queue = message.messageQueue();
        return call(queue, RequestCode.CONSUMER_SEND_MSG_BACK, header)
            .compose(response -> succeeded(response, "send back of " + message.msgId()));
    }

    /** LOCK_BATCH_MQ (41) at one broker: the queues this client now holds. */
    public Future<Set<MessageQueue>> lock(String brokerAddr, String clientId, Set<MessageQueue> queues) {
        RemotingCommand request = RemotingCommand.request(RequestCode.LOCK_BATCH_MQ, null,
            runtime.json().encode(new LockBatchBody(clientId, group, false, queues)));
        return runtime.remoting().invoke(brokerAddr, request).compose(response -> {
            if (response.code() != ResponseCode.SUCCESS) {
                return Future.failedFuture(new ClientException(response.code(), "lock at " + brokerAddr + ": "
                    + response.remark()));
            }
            LockBatchResult result = runtime.json().decode(response.body(), LockBatchResult.class);
            return Future.succeededFuture(result.lockOKMQSet() == null ? Set.of() : result.lockOKMQSet());
        });
    }

    public Future<Void> unlock(String brokerAddr, String clientId, Set<MessageQueue> queues) {
        RemotingCommand request = RemotingCommand.request(RequestCode.UNLOCK_BATCH_MQ, null,
            runtime.json().encode(new LockBatchBody(clientId, group, false, queues)));
        return runtime.remoting().invoke(brokerAddr, request)
            .compose(response -> succeeded(response, "unlock at " + brokerAddr));
    }

    /** GET_CONSUMER_LIST_BY_GROUP (38): the group's live client ids, as one broker knows them. */
    public Future<List<String>> consumerIds(String brokerAddr) {
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP,
            Map.of("consumerGroup", group), null);
        return runtime.remoting().invoke(brokerAddr, request).compose(response -> {
            if (response.code() != ResponseCode.SUCCESS || !response.hasBody()) {
                return Future.failedFuture(new ClientException(response.code(), "consumer list of " + group
                    + " at " + brokerAddr + ": " + response.remark()));
            }
            ConsumerIdList list = runtime.json().decode(response.body(), ConsumerIdList.class);
            return Future.succeededFuture(list.consumerIdList() == null ? List.of() : list.consumerIdList());
        });
    }

    private Future<PullResult> pullResult(MessageQueue queue, RemotingCommand response) {
        int code = response.code();
        if (code != ResponseCode.SUCCESS && code != ResponseCode.PULL_NOT_FOUND
            && code != ResponseCode.PULL_RETRY_IMMEDIATELY && code != ResponseCode.PULL_OFFSET_MOVED) {
            return Future.failedFuture(new ClientException(code, "pull of " + queue + ": " + response.remark()));
        }
        var header = response.header();
        List<ReceivedMessage> messages = code == ResponseCode.SUCCESS && response.hasBody()
            ? StoredRecordDecoder.decodeAll(response.body(), maxBodyBytes).stream()
                .map(message -> message.withBrokerName(queue.brokerName())).toList()
            : List.of();
        return Future.succeededFuture(new PullResult(code, header.requiredLong("nextBeginOffset"),
            header.optionalLong("minOffset", 0), header.optionalLong("maxOffset", 0), messages));
    }

    private Future<RemotingCommand> call(MessageQueue queue, int code, Map<String, String> header) {
        return masterAddr(queue).compose(address -> runtime.remoting().invoke(address,
            RemotingCommand.request(code, header, null)));
    }

    private static Map<String, String> queueHeader(MessageQueue queue) {
        Map<String, String> header = new TreeMap<>();
        header.put("topic", queue.topic());
        header.put("queueId", Integer.toString(queue.queueId()));
        return header;
    }

    private Map<String, String> commitHeader(MessageQueue queue, long offset) {
        Map<String, String> header = queueHeader(queue);
        header.put("consumerGroup", group);
        header.put("commitOffset", Long.toString(offset));
        return header;
    }

    private static Future<Long> offsetOf(RemotingCommand response) {
        if (response.code() != ResponseCode.SUCCESS) {
            return Future.failedFuture(new ClientException(response.code(), "offset request: " + response.remark()));
        }
        return Future.succeededFuture(response.header().requiredLong("offset"));
    }

    private static Future<Void> succeeded(RemotingCommand response, String what) {
        return response.code() == ResponseCode.SUCCESS ? Future.succeededFuture()
            : Future.failedFuture(new ClientException(response.code(), what + ": code " + response.code() + ", "
            + response.remark()));
    }

    /** LockBatchRequestBody / UnlockBatchRequestBody. */
    record LockBatchBody(String clientId, String consumerGroup, boolean onlyThisBroker, Set<MessageQueue> mqSet) {
    }

    record LockBatchResult(Set<MessageQueue> lockOKMQSet) {
    }

    record ConsumerIdList(List<String> consumerIdList) {
    }
}
