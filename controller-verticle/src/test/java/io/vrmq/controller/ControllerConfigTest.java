package io.vrmq.controller;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerConfigTest {

    private static JsonObject defaults() {
        return TestControllers.defaults();
    }

    private static String refusal(JsonObject config) {
        return assertThrows(IllegalArgumentException.class, () -> ControllerConfig.from(config)).getMessage();
    }

    @Test
    void theDefaultsAreAOneNodeGroupOnRocketMqsPort() {
        ControllerConfig config = ControllerConfig.from(defaults());
        assertEquals(new ControllerPeer("n0", "127.0.0.1", 9878), config.self());
        assertEquals(new ControllerPeer("n0", "127.0.0.1", 10878), config.selfRaft(), "controller port + 1000");
        assertEquals("n0:127.0.0.1:9878;", config.peersText());
        assertEquals(9882, config.adminPort());
        assertTrue(config.storePath().endsWith("/vrmq/controller"), config.storePath());
    }

    @Test
    void peersParseInRocketMqsFormat() {
        ControllerConfig config = ControllerConfig.from(defaults()
            .put("controllerDLegerPeers", " n0-10.0.0.1:9878; n1-10.0.0.2:9878 ;")
            .put("controllerDLegerSelfId", "n1")
            .put("controllerRaftPeers", "n0-10.0.0.1:7000;n1-10.0.0.2:7001"));
        assertEquals(List.of(new ControllerPeer("n0", "10.0.0.1", 9878), new ControllerPeer("n1", "10.0.0.2", 9878)),
            config.peers());
        assertEquals(new ControllerPeer("n1", "10.0.0.2", 7001), config.selfRaft());
        assertEquals("10.0.0.1:9878", config.controllerAddressOf("n0"));
    }

    @Test
    void badPeersAreRefusedNamingTheKey() {
        assertTrue(refusal(defaults().put("controllerDLegerPeers", "127.0.0.1:9878"))
            .contains("controllerDLegerPeers"));
        assertTrue(refusal(defaults().put("controllerDLegerPeers", "n0-a:1;n0-b:2")).contains("twice"));
        assertTrue(refusal(defaults().put("controllerDLegerPeers", "n0-a:70000")).contains("port"));
        assertTrue(refusal(defaults().put("controllerDLegerSelfId", "n7")).contains("controllerDLegerSelfId"));
        assertTrue(refusal(defaults().put("controllerRaftPeers", "n1-a:1")).contains("controllerRaftPeers"));
        assertTrue(refusal(defaults().put("controllerDLegerPeers", "n0-a:65000")).contains("controllerRaftPeers"),
            "65000 + 1000 is no port");
    }

    @Test
    void limitsAndTimeoutsAreChecked() {
        assertTrue(refusal(defaults().put("raftElectionTimeoutMaxMs", 1000L)).contains("raftElectionTimeoutMaxMs"));
        assertTrue(refusal(defaults().put("scanInactiveMasterInterval", 0L)).contains("scanInactiveMasterInterval"));
        assertTrue(refusal(defaults().put("electMasterMaxRetryCount", 0)).contains("electMasterMaxRetryCount"));
        assertTrue(refusal(defaults().put("snapshotThresholdEntries", 0L)).contains("snapshotThresholdEntries"));
        assertTrue(refusal(defaults().put("adminPort", -2)).contains("adminPort"));
        assertTrue(refusal(defaults().put("bindAddress", " ")).contains("bindAddress"));
        assertTrue(refusal(defaults().put("adminPort", "x")).contains("adminPort"));
        assertTrue(refusal(defaults().put("controllerStorePath", (String) null)).contains("controllerStorePath"));
    }

    @Test
    void pathKeysAreAlwaysBlackListed() {
        ControllerConfig config = ControllerConfig.from(defaults().put("configBlackList", "notifyBrokerRoleChanged"));
        assertEquals(ControllerConfig.ALWAYS_BLACK_LISTED.size() + 1, config.configBlackList().size());
        assertTrue(config.configBlackList().containsAll(List.of("configBlackList", "configStorePath",
            "controllerStorePath", "rocketmqHome", "notifyBrokerRoleChanged")));
    }
}
