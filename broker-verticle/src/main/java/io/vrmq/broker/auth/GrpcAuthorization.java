package io.vrmq.broker.auth;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Authentication of one gRPC call (RocketMQ 5 SDKs, what Apache's proxy checks with the same users): the
 * {@code authorization} header {@code MQv2-HMAC-SHA1 Credential=<ak>[/...], SignedHeaders=x-mq-date-time,
 * Signature=<hex>} names an enabled user, and the signature is the hex HMAC-SHA1, under that user's password, of
 * the {@code x-mq-date-time} header's exact value (any hex case: Java writes upper, Go lower). No clock-skew check,
 * as Apache's. Reads only thread-safe tables: any thread may call it.
 */
public final class GrpcAuthorization {
    private static final String HMAC_SHA1 = "HmacSHA1";
    private static final String CREDENTIAL = "credential";
    private static final String SIGNATURE = "signature";

    private final AuthMetadata metadata;

    public GrpcAuthorization(AuthMetadata metadata) {
        this.metadata = metadata;
    }

    /**
     * The AccessKey the header names (the Credential before any '/'), or null without one: what authorization
     * checks when authentication is off.
     */
    public static String accessKey(String authorization) {
        String credential = field(authorization, CREDENTIAL);
        if (credential == null) {
            return null;
        }
        int slash = credential.indexOf('/');
        String accessKey = (slash >= 0 ? credential.substring(0, slash) : credential).trim();
        return accessKey.isEmpty() ? null : accessKey;
    }

    /**
     * @return the authenticated username
     * @throws AuthException with a remark in Apache's words when the call is not signed by a known, enabled user
     */
    public String authenticate(String authorization, String dateTime) {
        String username = accessKey(authorization);
        if (username == null) {
            throw new AuthException("username cannot be null.");
        }
        User user = metadata.user(username);
        if (user == null) {
            throw new AuthException("User:" + username + " is not found.");
        }
        if (user.isDisabled()) {
            throw new AuthException("User:" + username + " is disabled.");
        }
        String presented = field(authorization, SIGNATURE);
        String password = user.password();
        if (presented == null || dateTime == null || password == null || password.isEmpty()
            || !MessageDigest.isEqual(hmacHex(password, dateTime).getBytes(StandardCharsets.US_ASCII),
                presented.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            throw new AuthException("check signature failed.");
        }
        return username;
    }

    /** Lower-case hex of HMAC-SHA1(secret, data). */
    static String hmacHex(String secret, String data) {
        try {
            Mac mac = Mac.getInstance(HMAC_SHA1);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), HMAC_SHA1));
            return HexFormat.of().formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is not available", e);
        }
    }

    /** A k=v field of the header, after the scheme and split on commas; the key in any case. */
    private static String field(String authorization, String key) {
        if (authorization == null) {
            return null;
        }
        int space = authorization.indexOf(' ');
        if (space < 0) {
            return null;
        }
        for (String part : authorization.substring(space + 1).split(",")) {
            int equals = part.indexOf('=');
            if (equals > 0 && part.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals(key)) {
                return part.substring(equals + 1).trim();
            }
        }
        return null;
    }
}
