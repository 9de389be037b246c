package io.vrmq.namesrv;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NameServerConfig.from: the embedded defaults are valid, and each bad value is refused with its key named. */
class NameServerConfigTest {

    @Test
    void theEmbeddedDefaultsAreValid() {
        NameServerConfig config = NameServerConfig.from(TestNameServer.defaults());

        assertEquals(9876, config.listenPort());
        assertEquals(9880, config.adminPort());
        assertEquals("127.0.0.1", config.adminHost());
        assertEquals(10_000, config.scanNotActiveBrokerIntervalMs());
        assertEquals(120_000, config.brokerChannelExpiredTimeMs());
        assertEquals(16 * 1024 * 1024, config.limits().maxFrameBytes());
    }

    @Test
    void aKvConfigPathUnderTheHomeDirectoryIsExpanded() {
        NameServerConfig config = NameServerConfig.from(TestNameServer.defaults()
            .put("kvConfigPath", "~/vrmq/kv.json"));

        assertEquals(System.getProperty("user.home") + "/vrmq/kv.json", config.kvConfigPath());
    }

    @Test
    void adminPortMinusOneDisablesTheAdminApi() {
        NameServerConfig config = NameServerConfig.from(TestNameServer.defaults().put("adminPort", -1));

        assertEquals(-1, config.adminPort());
    }

    @ParameterizedTest(name = "{0} = {1} is refused")
    @CsvSource({
        "listenPort, -1",
        "listenPort, 65536",
        "adminPort, -2",
        "adminPort, 70000",
        "scanNotActiveBrokerInterval, 0",
        "brokerChannelExpiredTime, -5",
        "maxConnections, 0",
        "shutdownGraceMs, 0",
        "maxFrameBytes, 4",
        "maxHeaderBytes, 0",
        "maxHeaderBytes, 16777216",
        "requestTimeoutMs, 0",
        "maxPendingRequests, 0",
    })
    void anOutOfRangeValueIsRefusedWithItsKeyNamed(String key, long value) {
        JsonObject config = TestNameServer.defaults().put(key, value);

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> NameServerConfig.from(config));

        assertTrue(error.getMessage().contains(key), error.getMessage());
        assertTrue(error.getMessage().contains(Long.toString(value)), error.getMessage());
    }

    @ParameterizedTest(name = "blank {0} is refused")
    @CsvSource({"bindAddress", "adminHost", "kvConfigPath"})
    void aBlankAddressOrPathIsRefusedWithItsKeyNamed(String key) {
        JsonObject config = TestNameServer.defaults().put(key, " ");

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> NameServerConfig.from(config));

        assertTrue(error.getMessage().contains(key), error.getMessage());
    }

    @ParameterizedTest(name = "missing {0} is refused")
    @CsvSource({"listenPort", "kvConfigPath", "brokerChannelExpiredTime", "supportActingMaster"})
    void aMissingKeyIsRefusedWithItsKeyNamed(String key) {
        JsonObject config = TestNameServer.defaults();
        config.remove(key);

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> NameServerConfig.from(config));

        assertTrue(error.getMessage().contains(key), error.getMessage());
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedWithItsKeyNamed() {
        JsonObject config = TestNameServer.defaults().put("listenPort", "not-a-port");

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> NameServerConfig.from(config));

        assertTrue(error.getMessage().contains("listenPort"), error.getMessage());
    }
}
