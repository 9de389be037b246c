package io.vrmq.broker.auth;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Authentication and authorization of whole requests, with the remarks Apache's broker gives. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class GuardChecksTest {
    private static final String IP = "127.0.0.1";

    private final AuthMetadata metadata = new AuthMetadata();
    private final Authenticator authenticator = new Authenticator(metadata);
    private final Authorizer authorizer = new Authorizer(metadata);
    private final RequestResources resources = new RequestResources(new RemotingJson(), "C1");

    GuardChecksTest() {
        metadata.createUser(new User("alice", "alice-secret", null, null));
        metadata.createUser(new User("root", "root-secret", UserType.SUPER, null));
        metadata.mergeAcl(new Acl("alice", List.of(new Policy(PolicyType.CUSTOM, List.of(
            new PolicyEntry(Resource.parse("Topic:t"), List.of(Action.SUB), List.of(), Decision.ALLOW),
            new PolicyEntry(Resource.parse("Group:g"), List.of(Action.SUB), List.of(), Decision.ALLOW))))));
    }

    private static RemotingCommand sendV2(String topic) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, Map.of("a", "pg", "b", topic, "e", "0"),
            Buffer.buffer("body"));
    }

    private String authenticationRefusal(RemotingCommand request) {
        return assertThrows(AuthException.class, () -> authenticator.authenticate(request)).getMessage();
    }

    private void authorize(RemotingCommand request) {
        authorizer.authorize(request.ext(RequestSignature.ACCESS_KEY), resources.of(request), IP);
    }

    @Test
    void aRequestSignedWithTheRightSecretIsAuthenticated() {
        assertDoesNotThrow(() -> authenticator.authenticate(RequestSignature.sign(sendV2("t"), "alice",
            "alice-secret")));
    }

    @Test
    void wrongSecretUnknownUserAndNoAccessKeyGetApachesRemarks() {
        assertEquals("check signature failed.", authenticationRefusal(RequestSignature.sign(sendV2("t"), "alice",
            "wrong")));
        assertEquals("User:mallory is not found.", authenticationRefusal(RequestSignature.sign(sendV2("t"),
            "mallory", "x")));
        assertEquals("username cannot be null.", authenticationRefusal(sendV2("t")));
    }

    @Test
    void aChangedFieldOrBodyBreaksTheSignature() {
        RemotingCommand signed = RequestSignature.sign(sendV2("t"), "alice", "alice-secret");
        Map<String, String> tampered = signed.extFieldsCopy();
        tampered.put("b", "other");
        assertEquals("check signature failed.", authenticationRefusal(signed.withExtFields(tampered)));
        RemotingCommand otherBody = new RemotingCommand(signed.code(), signed.language(), signed.version(),
            signed.opaque(), signed.flag(), null, signed.extFields(), Buffer.buffer("other"),
            signed.serializeType());
        assertEquals("check signature failed.", authenticationRefusal(otherBody));
    }

    @Test
    void aSubOnlyUserMayNotSendButMayPull() {
        RemotingCommand send = RequestSignature.sign(sendV2("t"), "alice", "x");
        String refusal = assertThrows(AuthException.class, () -> authorize(send)).getMessage();
        assertEquals("User:alice has no permission to access Topic:t from 127.0.0.1, no matched policies.",
            refusal);
        RemotingCommand pull = RemotingCommand.request(RequestCode.PULL_MESSAGE, Map.of("AccessKey", "alice",
            "consumerGroup", "g", "topic", "t", "queueId", "0"), null);
        assertDoesNotThrow(() -> authorize(pull));
    }

    /** RECALL_MESSAGE needs Pub on the topic (Apache's rule), so a Sub-only user may not recall. */
    @Test
    void aRecallNeedsPubOnTheTopic() {
        RemotingCommand recall = RemotingCommand.request(RequestCode.RECALL_MESSAGE, Map.of("AccessKey", "alice",
            "producerGroup", "pg", "topic", "t", "recallHandle", "h"), null);
        assertEquals(List.of(AccessRequest.of(Resource.topic("t"), Action.PUB)), resources.of(recall));
        assertThrows(AuthException.class, () -> authorize(recall));
    }

    @Test
    void aSuperUserPassesEveryCheckAndANormalUserNeedsClusterRightsForAdminCodes() {
        RemotingCommand createUser = RemotingCommand.request(RequestCode.AUTH_CREATE_USER,
            Map.of("AccessKey", "alice", "username", "bob"), null);
        assertEquals("User:alice has no permission to access Cluster:C1 from 127.0.0.1, no matched policies.",
            assertThrows(AuthException.class, () -> authorize(createUser)).getMessage());
        assertDoesNotThrow(() -> authorize(RemotingCommand.request(RequestCode.AUTH_CREATE_USER,
            Map.of("AccessKey", "root", "username", "bob"), null)));
    }

    @Test
    void aHeartbeatNeedsSubOnEveryConsumerGroupAndItsTopics() {
        String heartbeat = "{\"clientID\":\"c\",\"producerDataSet\":[{\"groupName\":\"pg\"}],\"consumerDataSet\":"
            + "[{\"groupName\":\"g\",\"subscriptionDataSet\":[{\"topic\":\"t\"},{\"topic\":\"%RETRY%g\"}]}]}";
        RemotingCommand request = RemotingCommand.request(RequestCode.HEART_BEAT, Map.of("AccessKey", "alice"),
            Buffer.buffer(heartbeat));
        assertEquals(List.of(AccessRequest.of(Resource.group("g"), Action.SUB),
            AccessRequest.of(Resource.topic("t"), Action.SUB)), resources.of(request));
        assertDoesNotThrow(() -> authorize(request));
    }

    @Test
    void aSendToARetryTopicNeedsSubOnTheGroupAndARequestWithoutFieldsNeedsNothing() {
        assertEquals(List.of(AccessRequest.of(Resource.group("g"), Action.SUB)),
            resources.of(sendV2("%RETRY%g")));
        assertEquals(List.of(), resources.of(RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)));
    }

    @Test
    void aRequestWithoutAccessKeyIsRefusedByAuthorizationAlone() {
        assertEquals(Authorizer.FAILED, assertThrows(AuthException.class, () -> authorize(sendV2("t")))
            .getMessage());
    }
}
