package io.vrmq.remoting.body.controller;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.json.RemotingJson;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The controller bodies read what Apache RocketMQ 5.5.0 writes (observed on the wire) and write sorted JSON. */
class ControllerBodiesTest {
    private final RemotingJson json = new RemotingJson();

    @Test
    void syncStateSetReadsApacheJsonAndWritesSortedIds() {
        SyncStateSetBody body = json.decode(Buffer.buffer("{\"syncStateSet\":[3,1,2],\"syncStateSetEpoch\":2}"),
            SyncStateSetBody.class);
        assertEquals(Set.of(1L, 2L, 3L), body.syncStateSet());
        assertEquals(2, body.syncStateSetEpoch());
        assertEquals("{\"syncStateSet\":[1,2,3],\"syncStateSetEpoch\":2}", json.encode(body).toString());
    }

    @Test
    void electMasterBodyReadsUnquotedIdKeys() {
        ElectMasterResponseBody body = json.decode(Buffer.buffer("{\"brokerMemberGroup\":{\"brokerAddrs\":"
            + "{1:\"127.0.0.1:47911\"},\"brokerName\":\"b1\",\"cluster\":\"c1\"},\"syncStateSet\":[1]}"),
            ElectMasterResponseBody.class);
        assertEquals(Map.of(1L, "127.0.0.1:47911"), body.brokerMemberGroup().brokerAddrs());
        assertEquals("b1", body.brokerMemberGroup().brokerName());
        assertEquals(Set.of(1L), body.syncStateSet());
    }

    @Test
    void stillExistAnswerHasNoMemberGroup() {
        ElectMasterResponseBody body = new ElectMasterResponseBody(null, Set.of(2L, 1L));
        assertEquals("{\"syncStateSet\":[1,2]}", json.encode(body).toString());
    }
}
