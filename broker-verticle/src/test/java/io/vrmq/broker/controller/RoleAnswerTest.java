package io.vrmq.broker.controller;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The controller's answers as Apache RocketMQ 5.5.0 writes them (headers as extFields, bodies as fastjson). */
class RoleAnswerTest {
    private final RemotingJson json = new RemotingJson();

    @Test
    void aRegisterAnswerNamesTheMasterAndTheSyncStateSet() {
        RemotingCommand response = answer(Map.of("clusterName", "c1", "brokerName", "b1", "masterBrokerId", "1",
            "masterAddress", "127.0.0.1:47911", "masterEpoch", "3", "syncStateSetEpoch", "5"),
            "{\"syncStateSet\":[1,2],\"syncStateSetEpoch\":5}");

        RoleAnswer answer = RoleAnswer.fromReplicaInfo(response, json);

        assertEquals(new RoleAnswer(1L, "127.0.0.1:47911", 3, 5, Set.of(1L, 2L)), answer);
        assertTrue(answer.hasMaster());
    }

    @Test
    void aReplicaInfoAnswerTakesTheSetsEpochFromTheBody() {
        RemotingCommand response = answer(Map.of("masterBrokerId", "2", "masterAddress", "127.0.0.1:47912",
            "masterEpoch", "4"), "{\"syncStateSet\":[2],\"syncStateSetEpoch\":7}");

        assertEquals(7, RoleAnswer.fromReplicaInfo(response, json).syncStateSetEpoch());
    }

    @Test
    void aSetWithoutAMasterHasNone() {
        RemotingCommand response = answer(Map.of("masterEpoch", "4"), "{\"syncStateSet\":[1],\"syncStateSetEpoch\":2}");

        assertFalse(RoleAnswer.fromReplicaInfo(response, json).hasMaster());
    }

    @Test
    void anElectionAnswerReadsTheSetFromItsBodyWithUnquotedIdKeys() {
        RemotingCommand response = answer(Map.of("masterBrokerId", "1", "masterAddress", "127.0.0.1:47911",
            "masterEpoch", "1", "syncStateSetEpoch", "1"), "{\"brokerMemberGroup\":{\"brokerAddrs\":"
            + "{1:\"127.0.0.1:47911\"},\"brokerName\":\"b1\",\"cluster\":\"c1\"},\"syncStateSet\":[1]}");

        assertEquals(new RoleAnswer(1L, "127.0.0.1:47911", 1, 1, Set.of(1L)), RoleAnswer.fromElection(response,
            json));
    }

    private static RemotingCommand answer(Map<String, String> header, String body) {
        RemotingCommand request = RemotingCommand.request(RequestCode.CONTROLLER_REGISTER_BROKER);
        return RemotingCommand.success(request, header, Buffer.buffer(body));
    }
}
