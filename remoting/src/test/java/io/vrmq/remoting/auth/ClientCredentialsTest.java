package io.vrmq.remoting.auth;

import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ClientCredentialsTest {
    private static final String JSON = "{\"accessKey\":\"inner\",\"secretKey\":\"inner-secret\"}";

    @Test
    void absentOrBlankSignsNothing() {
        assertNull(ClientCredentials.from(new JsonObject()));
        assertNull(ClientCredentials.from(new JsonObject().put(ClientCredentials.KEY, " ")));
        RemotingCommand request = RemotingCommand.request(1008, Map.of("masterEpoch", "2"), null);
        assertSame(request, ClientCredentials.signer(null).apply(request));
    }

    @Test
    void signsAsTheOfficialHookSoThatTheBrokerCheckPasses() {
        ClientCredentials credentials = ClientCredentials.from(new JsonObject().put(ClientCredentials.KEY, JSON));
        RemotingCommand signed = ClientCredentials.signer(credentials).apply(RemotingCommand.request(1008,
            Map.of("masterEpoch", "2", "masterAddress", "127.0.0.1:10911"), null));
        assertEquals("inner", signed.ext(RequestSignature.ACCESS_KEY));
        assertTrue(RequestSignature.matches(RequestSignature.expected(signed, "inner-secret"),
            signed.ext(RequestSignature.SIGNATURE)));
        assertFalse(credentials.toString().contains("inner-secret"));
    }

    @Test
    void aBadValueIsRefusedNamingTheKeyButNotTheSecret() {
        IllegalArgumentException notJson = assertThrows(IllegalArgumentException.class, () -> ClientCredentials.from(
            new JsonObject().put(ClientCredentials.KEY, "secret-without-json")));
        assertTrue(notJson.getMessage().contains(ClientCredentials.KEY));
        assertFalse(notJson.getMessage().contains("secret-without-json"));
        assertThrows(IllegalArgumentException.class, () -> ClientCredentials.from(new JsonObject()
            .put(ClientCredentials.KEY, "{\"accessKey\":\"inner\"}")));
    }
}
