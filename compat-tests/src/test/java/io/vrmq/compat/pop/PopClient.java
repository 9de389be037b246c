package io.vrmq.compat.pop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.consumer.AckCallback;
import org.apache.rocketmq.client.consumer.AckResult;
import org.apache.rocketmq.client.consumer.PopCallback;
import org.apache.rocketmq.client.consumer.PopResult;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.header.AckMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ChangeInvisibleTimeRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.ExtraInfoUtil;
import org.apache.rocketmq.remoting.protocol.header.PopMessageRequestHeader;

/**
 * POP through the official 5.5.0 client's own API ({@code MQClientAPIImpl.popMessageAsync}, {@code ackMessageAsync},
 * {@code changeInvisibleTimeAsync}: what its push consumer in POP mode and Apache's proxy call), on the
 * {@code MQClientInstance} of a started producer. The client builds each message's receipt (POP_CK) from the
 * response, as it does for its consumers. Test thread; the callbacks complete the futures on client threads.
 */
final class PopClient {
    private static final long TIMEOUT_MS = 10_000;

    private final MQClientAPIImpl api;
    private final String brokerName;
    private final String brokerAddr;

    PopClient(DefaultMQProducer producer, String brokerName, String brokerAddr) {
        this.api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
        this.brokerName = brokerName;
        this.brokerAddr = brokerAddr;
    }

    /** A pop of up to {@code maxMsgNums} from {@code queueId} (-1: all), waiting up to {@code pollTimeMs}. */
    PopResult pop(String group, String topic, int queueId, int maxMsgNums, long invisibleTimeMs, long pollTimeMs,
                  boolean isOrder, String attemptId) throws Exception {
        PopMessageRequestHeader header = new PopMessageRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(queueId);
        header.setMaxMsgNums(maxMsgNums);
        header.setInvisibleTime(invisibleTimeMs);
        header.setInitMode(0);
        header.setExpType("TAG");
        header.setExp("TagA");
        header.setOrder(isOrder);
        header.setAttemptId(attemptId);
        header.setPollTime(pollTimeMs);
        header.setBornTime(System.currentTimeMillis());
        CompletableFuture<PopResult> result = new CompletableFuture<>();
        api.popMessageAsync(brokerName, brokerAddr, header, pollTimeMs + TIMEOUT_MS, new PopCallback() {
            @Override
            public void onSuccess(PopResult popResult) {
                result.complete(popResult);
            }

            @Override
            public void onException(Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result.get(pollTimeMs + 2 * TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    /** ACK_MESSAGE as the push consumer's ackAsync sends it. */
    AckResult ack(String group, MessageExt message) throws Exception {
        String receipt = message.getProperty(MessageConst.PROPERTY_POP_CK);
        String[] fields = ExtraInfoUtil.split(receipt);
        AckMessageRequestHeader header = new AckMessageRequestHeader();
        header.setTopic(ExtraInfoUtil.getRealTopic(fields, message.getTopic(), group));
        header.setQueueId(ExtraInfoUtil.getQueueId(fields));
        header.setOffset(ExtraInfoUtil.getQueueOffset(fields));
        header.setConsumerGroup(group);
        header.setExtraInfo(receipt);
        CompletableFuture<AckResult> result = new CompletableFuture<>();
        api.ackMessageAsync(brokerAddr, TIMEOUT_MS, callback(result), header);
        return result.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * CHANGE_MESSAGE_INVISIBLETIME as the push consumer's changePopInvisibleTimeAsync sends it; the result carries
     * the new receipt, which this sets on the message (as the client keeps it) so a later ack uses it.
     */
    AckResult changeInvisibleTime(String group, MessageExt message, long invisibleTimeMs) throws Exception {
        String receipt = message.getProperty(MessageConst.PROPERTY_POP_CK);
        String[] fields = ExtraInfoUtil.split(receipt);
        ChangeInvisibleTimeRequestHeader header = new ChangeInvisibleTimeRequestHeader();
        header.setTopic(ExtraInfoUtil.getRealTopic(fields, message.getTopic(), group));
        header.setQueueId(ExtraInfoUtil.getQueueId(fields));
        header.setOffset(ExtraInfoUtil.getQueueOffset(fields));
        header.setConsumerGroup(group);
        header.setExtraInfo(receipt);
        header.setInvisibleTime(invisibleTimeMs);
        CompletableFuture<AckResult> result = new CompletableFuture<>();
        api.changeInvisibleTimeAsync(brokerName, brokerAddr, header, TIMEOUT_MS, callback(result));
        AckResult changed = result.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return changed;
    }

    private static AckCallback callback(CompletableFuture<AckResult> result) {
        return new AckCallback() {
            @Override
            public void onSuccess(AckResult ackResult) {
                result.complete(ackResult);
            }

            @Override
            public void onException(Throwable e) {
                result.completeExceptionally(e);
            }
        };
    }
}
