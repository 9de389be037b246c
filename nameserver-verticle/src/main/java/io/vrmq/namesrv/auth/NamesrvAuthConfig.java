package io.vrmq.namesrv.auth;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The NameServer's own authentication, beyond Apache (whose NameServer checks nothing): with
 * {@code authenticationEnabled}, requests that change the NameServer's state must be signed, as the official
 * AclClientRPCHook signs them, by one of the NameServer's users. Those are the same two keys a broker has:
 * {@code initAuthenticationUser} (e.g. what mqadmin signs with, from its conf/tools.yml) and
 * {@code innerClientAuthenticationCredentials} (what the brokers sign their registrations with).
 *
 * @param authenticationEnabled whether writes must be signed
 * @param secretsByUser         the users' names and secrets (the HMAC keys)
 */
public record NamesrvAuthConfig(boolean authenticationEnabled, Map<String, String> secretsByUser) {
    public NamesrvAuthConfig {
        secretsByUser = Map.copyOf(secretsByUser);
        if (authenticationEnabled && secretsByUser.isEmpty()) {
            throw new IllegalArgumentException("authenticationEnabled needs initAuthenticationUser or "
                + "innerClientAuthenticationCredentials: nobody could register a broker or change a setting");
        }
    }

    public static NamesrvAuthConfig from(JsonObject config) {
        Map<String, String> users = new LinkedHashMap<>();
        add(users, config.getString("initAuthenticationUser", ""), "initAuthenticationUser", "username",
            "password");
        add(users, config.getString("innerClientAuthenticationCredentials", ""),
            "innerClientAuthenticationCredentials", "accessKey", "secretKey");
        return new NamesrvAuthConfig(config.getBoolean("authenticationEnabled", false), users);
    }

    private static void add(Map<String, String> users, String text, String key, String nameField,
                            String secretField) {
        if (text == null || text.isBlank()) {
            return;
        }
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("invalid " + key + ": not a JSON object");   // no secret in the text
        }
        String name = json.getValue(nameField) instanceof String value ? value : null;
        String secret = json.getValue(secretField) instanceof String value ? value : null;
        if (name == null || name.isBlank() || secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("invalid " + key + ": \"" + nameField + "\" and \"" + secretField
                + "\" must be non-empty strings");
        }
        users.put(name, secret);
    }

    /** Never a secret in a log line. */
    @Override
    public String toString() {
        return "NamesrvAuthConfig[authenticationEnabled=" + authenticationEnabled + ", users="
            + secretsByUser.keySet() + "]";
    }
}
