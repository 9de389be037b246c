package io.vrmq.client.internal;

import io.vertx.core.Future;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * HEART_BEAT (34) to a set of brokers: the body names the client and its groups (and a consumer's subscriptions).
 * A broker that does not answer is logged and tried again at the next period. Confined to the client's context.
 */
public final class Heartbeats {
    private static final Logger log = LoggerFactory.getLogger(Heartbeats.class);

    private final ClientRuntime runtime;

    public Heartbeats(ClientRuntime runtime) {
        this.runtime = runtime;
    }

    /** Completes when every broker answered or failed; never fails. */
    public Future<Void> send(HeartbeatData heartbeat, Collection<String> brokerAddrs) {
        List<Future<RemotingCommand>> sent = new ArrayList<>();
        for (String address : brokerAddrs) {
            RemotingCommand request = RemotingCommand.request(RequestCode.HEART_BEAT, null,
                runtime.json().encode(heartbeat));
            sent.add(runtime.remoting().invoke(address, request)
                .onSuccess(response -> {
                    if (response.code() != ResponseCode.SUCCESS) {
                        log.warn("heartbeat to {} refused: code {}, {}", address, response.code(),
                            response.remark());
                    }
                })
                .onFailure(error -> log.debug("heartbeat to {} failed: {}", address, error.toString())));
        }
        return Future.join(sent).<Void>mapEmpty().otherwiseEmpty();
    }

    /** UNREGISTER_CLIENT (35) for a producer or consumer group; never fails. */
    public Future<Void> unregister(Collection<String> brokerAddrs, String producerGroup, String consumerGroup) {
        List<Future<RemotingCommand>> sent = new ArrayList<>();
        for (String address : brokerAddrs) {
            java.util.Map<String, String> header = new java.util.HashMap<>();
            header.put("clientID", runtime.clientId());
            if (producerGroup != null) {
                header.put("producerGroup", producerGroup);
            }
            if (consumerGroup != null) {
                header.put("consumerGroup", consumerGroup);
            }
            sent.add(runtime.remoting().invoke(address, RemotingCommand.request(RequestCode.UNREGISTER_CLIENT, header,
                null)).onFailure(error -> log.debug("unregister at {} failed: {}", address, error.toString())));
        }
        return Future.join(sent).<Void>mapEmpty().otherwiseEmpty();
    }
}
