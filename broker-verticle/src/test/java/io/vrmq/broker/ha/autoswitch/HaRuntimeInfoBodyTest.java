package io.vrmq.broker.ha.autoswitch;

import io.vrmq.remoting.json.RemotingJson;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The haStatus body has RocketMQ's HARuntimeInfo field names (fastjson: sorted keys, nulls left out). */
class HaRuntimeInfoBodyTest {
    private final RemotingJson json = new RemotingJson();

    @Test
    void aMastersBodyNamesEveryFieldAsHaRuntimeInfoDoes() {
        HaRuntimeInfoBody master = new HaRuntimeInfoBody(true, 4096, 1, List.of(
            new HaRuntimeInfoBody.HaConnectionInfo("127.0.0.1:52040", 4000, 96, true, 10, 4096)),
            HaRuntimeInfoBody.HaClientInfo.NONE);
        assertEquals("{\"haClientRuntimeInfo\":{\"lastReadTimestamp\":0,\"lastWriteTimestamp\":0,\"masterFlushOffset\":0,"
            + "\"maxOffset\":0,\"transferredByteInSecond\":0},\"haConnectionInfo\":[{\"addr\":\"127.0.0.1:52040\","
            + "\"diff\":96,\"inSync\":true,\"slaveAckOffset\":4000,\"transferFromWhere\":4096,"
            + "\"transferredByteInSecond\":10}],\"inSyncSlaveNums\":1,\"master\":true,\"masterCommitLogMaxOffset\":4096}",
            json.encode(master).toString());
    }

    @Test
    void aSlavesBodyCarriesItsClientPart() {
        HaRuntimeInfoBody slave = new HaRuntimeInfoBody(false, 0, 0, List.of(),
            new HaRuntimeInfoBody.HaClientInfo("127.0.0.1:10912", 5, 4096, 11, 12, 4000));
        assertEquals("{\"haClientRuntimeInfo\":{\"lastReadTimestamp\":11,\"lastWriteTimestamp\":12,"
            + "\"masterAddr\":\"127.0.0.1:10912\",\"masterFlushOffset\":4000,\"maxOffset\":4096,"
            + "\"transferredByteInSecond\":5},\"haConnectionInfo\":[],\"inSyncSlaveNums\":0,\"master\":false,"
            + "\"masterCommitLogMaxOffset\":0}", json.encode(slave).toString());
    }
}
