package io.vrmq.broker.ha;

import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.tls.TlsSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class HaLinkTlsTest {
    private static TlsSettings tls(String mode, boolean isClientEnabled) {
        return TlsSettings.from(new JsonObject().put(TlsSettings.CONFIG_FILE, "").put(TlsSettings.SERVER_MODE, mode)
            .put(TlsSettings.ENABLE, isClientEnabled));
    }

    @Test
    void autoFollowsTheBrokersOutgoingRule() {
        JsonObject auto = new JsonObject();
        assertFalse(HaLinkTls.from(auto, tls("permissive", false)).isTls());
        assertTrue(HaLinkTls.from(auto, tls("permissive", true)).isTls());
        assertTrue(HaLinkTls.from(auto, tls("enforcing", false)).isTls());
        assertTrue(HaLinkTls.from(auto, tls("enforcing", false)).clientOptions().isSsl());
    }

    @Test
    void trueAndFalseDecideAlone() {
        assertTrue(HaLinkTls.from(new JsonObject().put(HaLinkTls.HA_CLIENT_TLS, "true"), tls("disabled", false))
            .clientOptions().isSsl());
        // e.g. an enforcing broker following an Apache master, whose HA port is plain only
        assertFalse(HaLinkTls.from(new JsonObject().put(HaLinkTls.HA_CLIENT_TLS, "false"), tls("enforcing", true))
            .clientOptions().isSsl());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> HaLinkTls.from(
            new JsonObject().put(HaLinkTls.HA_CLIENT_TLS, "sometimes"), tls("permissive", false)));
        assertTrue(bad.getMessage().contains(HaLinkTls.HA_CLIENT_TLS));
    }
}
