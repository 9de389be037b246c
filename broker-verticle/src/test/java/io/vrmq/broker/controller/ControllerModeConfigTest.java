package io.vrmq.broker.controller;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Controller-mode keys: RocketMQ's defaults, the addresses split, and bad values refused by name. */
class ControllerModeConfigTest {

    @Test
    void theDefaultsAreRocketMqsAndControllerModeIsOff() throws IOException {
        ControllerModeConfig config = ControllerModeConfig.from(defaults());
        assertFalse(config.enableControllerMode());
        assertEquals(5_000, config.syncBrokerMetadataPeriodMs());
        assertEquals(5_000, config.checkSyncStateSetPeriodMs());
        assertEquals(10_000, config.syncControllerMetadataPeriodMs());
        assertEquals(10_000, config.controllerHeartBeatTimeoutMs());
        assertEquals(Integer.MAX_VALUE, config.brokerElectionPriority());
        assertEquals(1_000, config.brokerHeartbeatIntervalMs());
        assertEquals("/data/store/brokerIdentity", config.brokerIdentityPath("/data/store"));
        assertEquals("/data/store/epochFileCheckpoint", config.epochFilePath("/data/store"));
    }

    @Test
    void controllerAddrIsSplitOnSemicolons() throws IOException {
        ControllerModeConfig config = ControllerModeConfig.from(defaults().put("enableControllerMode", true)
            .put("controllerAddr", "10.0.0.1:9878; 10.0.0.2:9878;"));
        assertEquals(List.of("10.0.0.1:9878", "10.0.0.2:9878"), config.controllerAddrs());
    }

    @Test
    void controllerModeWithoutControllersIsRefused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> ControllerModeConfig.from(defaults().put("enableControllerMode", true)));
        assertEquals("invalid controllerAddr (required with enableControllerMode): ", error.getMessage());
    }

    @Test
    void aLeaseNotShorterThanTheHeartbeatTimeoutIsRefused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> ControllerModeConfig.from(defaults().put("controllerLeaseMs", 10_000)));
        assertEquals("invalid controllerLeaseMs (between brokerHeartbeatInterval and controllerHeartBeatTimeoutMills)"
            + ": 10000", error.getMessage());
    }

    private static JsonObject defaults() throws IOException {
        try (InputStream in = ControllerModeConfigTest.class.getClassLoader()
            .getResourceAsStream("broker-defaults.json")) {
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
