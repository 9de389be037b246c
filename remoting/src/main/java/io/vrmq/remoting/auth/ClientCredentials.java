package io.vrmq.remoting.auth;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.function.UnaryOperator;

/**
 * The credentials a role signs its own outgoing requests with, Apache's {@code innerClientAuthenticationCredentials}
 * ({@code {"accessKey":"…","secretKey":"…"}}): the controller signs what it sends to brokers with them, so a broker
 * that authenticates every request takes its NOTIFY_BROKER_ROLE_CHANGED. Immutable.
 */
public record ClientCredentials(String accessKey, String secretKey) {
    public static final String KEY = "innerClientAuthenticationCredentials";

    public ClientCredentials {
        if (accessKey == null || accessKey.isBlank() || secretKey == null || secretKey.isBlank()) {
            throw new IllegalArgumentException("invalid " + KEY + ": \"accessKey\" and \"secretKey\" must be "
                + "non-empty strings");
        }
    }

    /** From {@code config}'s {@link #KEY}; null when it is absent or blank (nothing is signed then). */
    public static ClientCredentials from(JsonObject config) {
        Object text = config.getValue(KEY);
        if (text == null || String.valueOf(text).isBlank()) {
            return null;
        }
        JsonObject json;
        try {
            json = text instanceof JsonObject object ? object : new JsonObject(String.valueOf(text));
        } catch (DecodeException e) {
            throw new IllegalArgumentException("invalid " + KEY + ": not a JSON object");   // no secret in the text
        }
        return new ClientCredentials(json.getValue("accessKey") instanceof String key ? key : null,
            json.getValue("secretKey") instanceof String secret ? secret : null);
    }

    /** Signs every request as the official AclClientRPCHook does; {@code credentials} null: leaves them as they are. */
    public static UnaryOperator<RemotingCommand> signer(ClientCredentials credentials) {
        if (credentials == null) {
            return UnaryOperator.identity();
        }
        return request -> RequestSignature.sign(request, credentials.accessKey(), credentials.secretKey());
    }

    /** Never the secret. */
    @Override
    public String toString() {
        return "ClientCredentials[accessKey=" + accessKey + "]";
    }
}
