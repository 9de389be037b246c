package io.vrmq.remoting.json;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.ClusterInfo;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RocketMQ's JSON bodies as fastjson writes them, read and written by {@link RemotingJson}. */
class RemotingJsonTest {
    /** PROTOCOL.md §3, TopicRouteData as the NameServer writes it with quoted keys. */
    private static final String TOPIC_ROUTE_DATA = "{\"brokerDatas\":[{\"brokerAddrs\":{\"0\":\"127.0.0.1:10911\","
        + "\"1\":\"127.0.0.1:10921\"},\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\","
        + "\"enableActingMaster\":false}],\"filterServerTable\":{},\"queueDatas\":[{\"brokerName\":\"broker-a\","
        + "\"perm\":6,\"readQueueNums\":4,\"topicSysFlag\":0,\"writeQueueNums\":4}]}";

    /** PROTOCOL.md §3, ClusterInfo as the plain encoder writes it: brokerAddrs keys unquoted. */
    private static final String CLUSTER_INFO_UNQUOTED = "{\"brokerAddrTable\":{\"broker-a\":{\"brokerAddrs\":"
        + "{0:\"127.0.0.1:10911\"},\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\","
        + "\"enableActingMaster\":false}},\"clusterAddrTable\":{\"DefaultCluster\":[\"broker-a\"]}}";

    /** PROTOCOL.md §3, RegisterBrokerBody as the 5.5.0 broker sends it (compressed=false). */
    private static final String REGISTER_BROKER_BODY = "{\"filterServerList\":[],\"topicConfigSerializeWrapper\":"
        + "{\"dataVersion\":{\"counter\":3,\"stateVersion\":0,\"timestamp\":1700000000000},"
        + "\"mappingDataVersion\":{\"counter\":0,\"stateVersion\":0,\"timestamp\":1700000000001},"
        + "\"topicConfigTable\":{\"T\":{\"attributes\":{},\"order\":false,\"perm\":6,\"readQueueNums\":4,"
        + "\"topicFilterType\":\"SINGLE_TAG\",\"topicName\":\"T\",\"topicSysFlag\":0,\"writeQueueNums\":4}},"
        + "\"topicQueueMappingDetailMap\":{},\"topicQueueMappingInfoMap\":{}}}";

    private final RemotingJson json = new RemotingJson();

    @Test
    void fastjsonUnquotedIntegerKeysAreReadAsLongBrokerIds() {
        String body = "{\"brokerAddrs\":{0:\"127.0.0.1:10911\",\"1\":\"127.0.0.1:10921\"},\"brokerName\":"
            + "\"broker-a\",\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}";

        BrokerData broker = json.decode(utf8(body), BrokerData.class);

        assertEquals(Map.of(0L, "127.0.0.1:10911", 1L, "127.0.0.1:10921"), broker.brokerAddrs());
        assertEquals("127.0.0.1:10911", broker.brokerAddrs().get(BrokerData.MASTER_ID));
        assertEquals("broker-a", broker.brokerName());
        assertEquals("DefaultCluster", broker.cluster());
    }

    @Test
    void keysAreWrittenSortedAndNullsLeftOut() {
        Map<Long, String> addrs = new LinkedHashMap<>();
        addrs.put(1L, "127.0.0.1:10921");
        addrs.put(0L, "127.0.0.1:10911");
        BrokerData broker = new BrokerData("DefaultCluster", "broker-a", addrs, false, null);

        assertEquals("{\"brokerAddrs\":{\"0\":\"127.0.0.1:10911\",\"1\":\"127.0.0.1:10921\"},\"brokerName\":"
            + "\"broker-a\",\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}", text(json.encode(broker)));
    }

    @Test
    void aZoneNameIsWrittenWhenSet() {
        BrokerData broker = new BrokerData("c", "b", Map.of(0L, "h:1"), true, "zone-1");

        assertEquals("{\"brokerAddrs\":{\"0\":\"h:1\"},\"brokerName\":\"b\",\"cluster\":\"c\","
            + "\"enableActingMaster\":true,\"zoneName\":\"zone-1\"}", text(json.encode(broker)));
    }

    @Test
    void topicRouteDataReadsTheOfficialExample() {
        TopicRouteData route = json.decode(utf8(TOPIC_ROUTE_DATA), TopicRouteData.class);

        assertNull(route.orderTopicConf());
        assertEquals(List.of(new QueueData("broker-a", 4, 4, 6, 0)), route.queueDatas());
        assertEquals(List.of(new BrokerData("DefaultCluster", "broker-a",
            Map.of(0L, "127.0.0.1:10911", 1L, "127.0.0.1:10921"), false, null)), route.brokerDatas());
        assertTrue(route.filterServerTable().isEmpty());
    }

    @Test
    void topicRouteDataWritesTheOfficialExampleBack() {
        TopicRouteData route = json.decode(utf8(TOPIC_ROUTE_DATA), TopicRouteData.class);

        assertEquals(TOPIC_ROUTE_DATA, text(json.encode(route)));
    }

    @Test
    void topicRouteDataWithUnquotedKeysReadsTheSame() {
        String unquoted = TOPIC_ROUTE_DATA.replace("\"0\":", "0:").replace("\"1\":", "1:");

        assertEquals(json.decode(utf8(TOPIC_ROUTE_DATA), TopicRouteData.class),
            json.decode(utf8(unquoted), TopicRouteData.class));
    }

    @Test
    void clusterInfoReadsTheUnquotedExample() {
        ClusterInfo info = json.decode(utf8(CLUSTER_INFO_UNQUOTED), ClusterInfo.class);

        assertEquals(Map.of("broker-a", new BrokerData("DefaultCluster", "broker-a", Map.of(0L, "127.0.0.1:10911"),
            false, null)), info.brokerAddrTable());
        assertEquals(Map.of("DefaultCluster", Set.of("broker-a")), info.clusterAddrTable());
    }

    @Test
    void clusterInfoWritesTheExampleBackWithQuotedKeys() {
        ClusterInfo info = json.decode(utf8(CLUSTER_INFO_UNQUOTED), ClusterInfo.class);

        assertEquals(CLUSTER_INFO_UNQUOTED.replace("{0:", "{\"0\":"), text(json.encode(info)));
    }

    @Test
    void registerBrokerBodyReadsTheOfficialExample() {
        RegisterBrokerBody body = json.decode(utf8(REGISTER_BROKER_BODY), RegisterBrokerBody.class);

        assertTrue(body.filterServerList().isEmpty());
        assertEquals(new DataVersion(3, 0, 1_700_000_000_000L), body.topicConfigSerializeWrapper().dataVersion());
        assertEquals(Map.of("T", new TopicConfig("T", 4, 4, 6, "SINGLE_TAG", 0, false, Map.of())),
            body.topicConfigSerializeWrapper().topicConfigTable());
    }

    @Test
    void registerBrokerBodyWritesTheOfficialExampleBack() {
        RegisterBrokerBody body = json.decode(utf8(REGISTER_BROKER_BODY), RegisterBrokerBody.class);

        assertEquals(REGISTER_BROKER_BODY, text(json.encode(body)));
    }

    @Test
    void unknownFieldsInABodyAreIgnored() {
        String body = "{\"counter\":2,\"stateVersion\":0,\"timestamp\":5,\"addedInSomeLaterVersion\":{\"x\":[1]}}";

        assertEquals(new DataVersion(2, 0, 5), json.decode(utf8(body), DataVersion.class));
    }

    @Test
    void aBodyThatDoesNotParseFailsNamingTheType() {
        RemotingCommandException error = assertThrows(RemotingCommandException.class,
            () -> json.decode(utf8("{\"topicList\":"), TopicRouteData.class));

        assertEquals(ResponseCode.SYSTEM_ERROR, error.responseCode());
        assertTrue(error.getMessage().contains("TopicRouteData"), error.getMessage());
    }

    @Test
    void aMissingBodyFailsNamingTheType() {
        RemotingCommandException error = assertThrows(RemotingCommandException.class,
            () -> json.decode((Buffer) null, ClusterInfo.class));

        assertTrue(error.getMessage().contains("ClusterInfo"), error.getMessage());
    }

    private static Buffer utf8(String text) {
        return Buffer.buffer(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(Buffer buffer) {
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
