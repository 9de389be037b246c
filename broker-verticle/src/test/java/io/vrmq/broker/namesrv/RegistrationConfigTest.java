package io.vrmq.broker.namesrv;

import io.vertx.core.json.JsonObject;
import io.vrmq.broker.TestBrokerRequests;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistrationConfigTest {

    @Test
    void theDefaultIsRocketMqs24Seconds() {
        JsonObject defaults = TestBrokerRequests.config(java.nio.file.Path.of("unused"));
        assertEquals(24_000, RegistrationConfig.from(defaults).registerBrokerTimeoutMills());
    }

    @Test
    void aTimeoutBelowOneIsRefusedNamingTheKey() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RegistrationConfig.from(new JsonObject().put("registerBrokerTimeoutMills", 0)));
        assertTrue(refused.getMessage().contains("registerBrokerTimeoutMills"), refused.getMessage());
    }
}
