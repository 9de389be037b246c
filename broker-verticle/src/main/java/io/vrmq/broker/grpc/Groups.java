package io.vrmq.broker.grpc;

import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.group.SubscriptionGroupConfig;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.store.format.TopicNames;

/**
 * A consumer group named in a gRPC request: checked as the proxy checks it (ILLEGAL_CONSUMER_GROUP), then found,
 * or created on first use when autoCreateSubscriptionGroup is on (Apache's proxy refuses unknown groups even then,
 * and some SDKs hang at start when it does). Stateless.
 */
final class Groups {
    private static final int MAX_GROUP_CHARS = 255;

    private Groups() {
    }

    static SubscriptionGroupConfig require(BrokerContext broker, Resource resource) {
        String name = resource.getName();
        if (name.isBlank() || name.length() > MAX_GROUP_CHARS || !TopicNames.hasOnlyNameChars(name)) {
            throw new GrpcStatusException(Code.ILLEGAL_CONSUMER_GROUP, "consumer group must be 1.." + MAX_GROUP_CHARS
                + " characters of [%|a-zA-Z0-9_-]: " + name);
        }
        SubscriptionGroupConfig group = broker.groups().findOrCreate(name);
        if (group == null) {
            throw new GrpcStatusException(Code.CONSUMER_GROUP_NOT_FOUND, "consumer group " + name
                + " does not exist (autoCreateSubscriptionGroup is off)");
        }
        return group;
    }
}
