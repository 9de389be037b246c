package io.vrmq.broker.auth;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.HashSet;
import java.util.Set;

/**
 * The broker's ACL 2.0 settings, under Apache's AuthConfig names and defaults (everything off).
 *
 * @param authenticationEnabled     every request must be signed by a known user
 * @param authorizationEnabled      every request must be allowed by the user's ACL (Super users always are)
 * @param authenticationWhitelist   request codes that skip authentication
 * @param authorizationWhitelist    request codes that skip authorization
 * @param initUser                  created as a Super user at start-up when absent (initAuthenticationUser), or null
 * @param innerClientUser           the broker's own credentials (innerClientAuthenticationCredentials): created as
 *                                  a Super user when absent, and used to sign the broker's outgoing requests; or null
 * @param clusterName               the resource {@code Cluster:<name>} of cluster-wide admin requests
 * @param migrateAuthFromV1Enabled  at start-up, create the accounts of ACL 1.0's files under {@code rocketmqHome}
 *                                  that do not exist yet
 * @param rocketmqHome              where {@code conf/plain_acl.yml} and {@code conf/acl/} are (Apache's
 *                                  rocketmqHome: blank means {@code -Drocketmq.home.dir}, else {@code $ROCKETMQ_HOME})
 */
public record AuthConfig(boolean authenticationEnabled, boolean authorizationEnabled,
                         Set<Integer> authenticationWhitelist, Set<Integer> authorizationWhitelist, User initUser,
                         User innerClientUser, String clusterName, boolean migrateAuthFromV1Enabled,
                         String rocketmqHome) {
    public AuthConfig {
        if (migrateAuthFromV1Enabled && (rocketmqHome == null || rocketmqHome.isBlank())) {
            throw new IllegalArgumentException("migrateAuthFromV1Enabled needs rocketmqHome (or $ROCKETMQ_HOME): "
                + "where conf/plain_acl.yml is");
        }
        authenticationWhitelist = Set.copyOf(authenticationWhitelist);
        authorizationWhitelist = Set.copyOf(authorizationWhitelist);
    }

    public static AuthConfig from(JsonObject json, String clusterName) {
        return new AuthConfig(json.getBoolean("authenticationEnabled", false),
            json.getBoolean("authorizationEnabled", false),
            codes("authenticationWhitelist", json.getString("authenticationWhitelist", "")),
            codes("authorizationWhitelist", json.getString("authorizationWhitelist", "")),
            initUser(json.getString("initAuthenticationUser", "")),
            innerClientUser(json.getString("innerClientAuthenticationCredentials", "")), clusterName,
            json.getBoolean("migrateAuthFromV1Enabled", false), rocketmqHome(json.getString("rocketmqHome", "")));
    }

    /** Apache's MixAll.ROCKETMQ_HOME_DIR when the key is blank: the launchers of both set one of the two. */
    private static String rocketmqHome(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String fromProperty = System.getProperty("rocketmq.home.dir");
        return fromProperty != null ? fromProperty : System.getenv("ROCKETMQ_HOME");
    }

    /** Whether any check runs; when not, no guard is installed and requests pay nothing. */
    public boolean isEnforcing() {
        return authenticationEnabled || authorizationEnabled;
    }

    private static Set<Integer> codes(String key, String list) {
        Set<Integer> codes = new HashSet<>();
        for (String code : list.split(",")) {
            if (code.isBlank()) {
                continue;
            }
            try {
                codes.add(Integer.parseInt(code.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid " + key + " (comma-separated request codes): " + list);
            }
        }
        return codes;
    }

    /** {"username":"rocketmq","password":"12345678"}; the type is always Super. */
    private static User initUser(String text) {
        JsonObject json = parse("initAuthenticationUser", text);
        if (json == null) {
            return null;
        }
        return new User(required(json, "initAuthenticationUser", "username"),
            required(json, "initAuthenticationUser", "password"), UserType.SUPER, UserStatus.ENABLE);
    }

    /** {"accessKey":"…","secretKey":"…"}. */
    private static User innerClientUser(String text) {
        JsonObject json = parse("innerClientAuthenticationCredentials", text);
        if (json == null) {
            return null;
        }
        return new User(required(json, "innerClientAuthenticationCredentials", "accessKey"),
            required(json, "innerClientAuthenticationCredentials", "secretKey"), UserType.SUPER, UserStatus.ENABLE);
    }

    private static JsonObject parse(String key, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return new JsonObject(text);
        } catch (DecodeException e) {
            // The value holds a secret: name the key, not the text.
            throw new IllegalArgumentException("invalid " + key + ": not a JSON object");
        }
    }

    private static String required(JsonObject json, String key, String field) {
        Object value = json.getValue(field);
        if (!(value instanceof String text) || text.isBlank()) {
            throw new IllegalArgumentException("invalid " + key + ": \"" + field + "\" is missing or blank");
        }
        return text;
    }
}
