package io.vrmq.namesrv;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LiveSettingsTest {
    private final JsonObject defaults = defaults();
    private final LiveSettings settings = new LiveSettings(defaults, NameServerConfig.from(defaults));

    @Test
    void aRuntimeSafeSettingChangesAndIsReportedBack() {
        AtomicLong rearmedWith = new AtomicLong();
        settings.onScanIntervalChange(rearmedWith::set);

        assertNull(settings.apply(properties("scanNotActiveBrokerInterval", "7000")));

        assertEquals(7000L, settings.scanNotActiveBrokerIntervalMs());
        assertEquals(7000L, settings.current().get("scanNotActiveBrokerInterval"));
        assertEquals(7000L, rearmedWith.get());
    }

    @Test
    void aSettingFixedAtStartIsRefusedByName() {
        String refusal = settings.apply(properties("listenPort", "9999"));

        assertTrue(refusal.contains("listenPort"), refusal);
        assertEquals(9876, settings.current().get("listenPort"));
    }

    @Test
    void anUnknownKeyIsRefusedByName() {
        String refusal = settings.apply(properties("noSuchSetting", "1"));

        assertTrue(refusal.contains("noSuchSetting") && refusal.contains("not a NameServer setting"), refusal);
    }

    @Test
    void aNonNumericIntervalChangesNothing() {
        String refusal = settings.apply(properties("brokerChannelExpiredTime", "soon"));

        assertTrue(refusal.contains("brokerChannelExpiredTime"), refusal);
        assertEquals(120_000L, settings.brokerChannelExpiredTimeMs());
    }

    private static Properties properties(String key, String value) {
        Properties properties = new Properties();
        properties.setProperty(key, value);
        return properties;
    }

    private static JsonObject defaults() {
        try (InputStream in = LiveSettingsTest.class.getClassLoader().getResourceAsStream("namesrv-defaults.json")) {
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
