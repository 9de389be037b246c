package io.vrmq.broker.grpc;

import io.vrmq.broker.auth.AccessRequest;
import io.vrmq.broker.auth.Action;
import io.vrmq.broker.auth.Resource;
import io.vrmq.grpc.proto.Message;
import io.vrmq.grpc.proto.MessageQueue;
import io.vrmq.grpc.proto.QueryRouteRequest;
import io.vrmq.grpc.proto.ReceiveMessageRequest;
import io.vrmq.grpc.proto.SendMessageRequest;
import io.vrmq.grpc.proto.TelemetryCommand;
import io.vertx.core.net.SocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What each RPC needs in ACL terms, and the PROXY line the TLS front writes. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class GrpcResourcesTest {
    private static io.vrmq.grpc.proto.Resource named(String name) {
        return io.vrmq.grpc.proto.Resource.newBuilder().setName(name).build();
    }

    @Test
    void aSendNeedsPubOnEachTopicAndARetryTopicSubOnItsGroup() {
        SendMessageRequest send = SendMessageRequest.newBuilder()
            .addMessages(Message.newBuilder().setTopic(named("t1")))
            .addMessages(Message.newBuilder().setTopic(named("%RETRY%g1"))).build();
        assertEquals(List.of(AccessRequest.of(Resource.topic("t1"), Action.PUB),
            AccessRequest.of(Resource.group("g1"), Action.SUB)), GrpcResources.of(send));
    }

    @Test
    void aReceiveNeedsSubOnTopicAndGroupAndARouteEitherAction() {
        ReceiveMessageRequest receive = ReceiveMessageRequest.newBuilder().setGroup(named("g"))
            .setMessageQueue(MessageQueue.newBuilder().setTopic(named("t"))).build();
        assertEquals(List.of(AccessRequest.of(Resource.topic("t"), Action.SUB),
            AccessRequest.of(Resource.group("g"), Action.SUB)), GrpcResources.of(receive));
        assertEquals(List.of(AccessRequest.of(Resource.topic("t"), Action.PUB, Action.SUB)),
            GrpcResources.of(QueryRouteRequest.newBuilder().setTopic(named("t")).build()));
    }

    @Test
    void theFrontsProxyLineNamesTheClientInItsFamily() {
        assertEquals("PROXY TCP4 10.1.2.3 127.0.0.1 50000 8081\r\n", GrpcTlsFront.proxyLine(
            SocketAddress.inetSocketAddress(50000, "10.1.2.3"), SocketAddress.inetSocketAddress(8081, "127.0.0.1"))
            .toString());
        assertEquals("PROXY TCP6 0:0:0:0:0:0:0:1 ::1 50000 8081\r\n", GrpcTlsFront.proxyLine(
            SocketAddress.inetSocketAddress(50000, "::1"), SocketAddress.inetSocketAddress(8081, "127.0.0.1"))
            .toString());
    }

    @Test
    void telemetryNeedsNothingBeyondAuthentication() {
        assertEquals(List.of(), GrpcResources.of(TelemetryCommand.getDefaultInstance()));
    }
}
