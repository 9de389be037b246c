package io.vrmq.remoting.auth;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vrmq.remoting.protocol.RemotingCommand;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The request signature of RocketMQ's ACL (the official {@code AclClientRPCHook} signs, the broker checks):
 * Base64(HMAC-SHA1(secretKey, values + body)), where values are the ext-field values sorted by their keys in Java
 * String order, concatenated without separators, the key {@code Signature} left out, encoded as UTF-8, and body is
 * the raw body as it travels. There is no timestamp or nonce in remoting, so a signature proves the secret, not
 * freshness.
 *
 * <p>Stateless and thread-safe: each thread keeps its own {@link Mac}, because creating one per request costs more
 * than the HMAC of a small request.
 */
public final class RequestSignature {
    public static final String ACCESS_KEY = "AccessKey";
    public static final String SECURITY_TOKEN = "SecurityToken";
    public static final String SIGNATURE = "Signature";
    /** Left out of the signed values for senders of version 4.9.3 and older (they added it after signing). */
    public static final String UNIQUE_KEY_QUERY = "_UNIQUE_KEY_QUERY";
    /** MQVersion ordinal of 4.9.3. */
    public static final int VERSION_4_9_3 = 399;
    private static final String ALGORITHM = "HmacSHA1";
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(RequestSignature::newMac);

    private RequestSignature() {
    }

    /** The signature the sender of {@code request} must have computed with {@code secretKey}. */
    public static String expected(RemotingCommand request, String secretKey) {
        boolean skipUniqueKeyQuery = request.version() <= VERSION_4_9_3;
        TreeMap<String, String> sorted = new TreeMap<>();
        request.extFields().forEach((key, value) -> {
            if (!SIGNATURE.equals(key) && !(skipUniqueKeyQuery && UNIQUE_KEY_QUERY.equals(key))) {
                sorted.put(key, value);
            }
        });
        return compute(sorted, request.body(), secretKey);
    }

    /** Whether {@code presented} equals {@code expected}, in time that does not depend on where they differ. */
    public static boolean matches(String expected, String presented) {
        return presented != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
            presented.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code request} with AccessKey and Signature added, as the official hook sends it. */
    public static RemotingCommand sign(RemotingCommand request, String accessKey, String secretKey) {
        Map<String, String> fields = new HashMap<>(request.extFields());
        fields.remove(SIGNATURE);
        fields.put(ACCESS_KEY, accessKey);
        String signature = compute(new TreeMap<>(fields), request.body(), secretKey);
        fields.put(SIGNATURE, signature);
        return request.withExtFields(fields);
    }

    private static String compute(TreeMap<String, String> sortedFields, Buffer body, String secretKey) {
        StringBuilder values = new StringBuilder();
        // String.valueOf: a field without value signs as "null" on the official side too.
        sortedFields.values().forEach(value -> values.append(String.valueOf(value)));
        Mac mac = MACS.get();
        try {
            mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), ALGORITHM));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot initialise " + ALGORITHM, e);
        }
        mac.update(values.toString().getBytes(StandardCharsets.UTF_8));
        if (body != null) {
            // The body's own bytes, not a copy: a send body may be megabytes.
            mac.update(((BufferInternal) body).getByteBuf().nioBuffer());
        }
        return Base64.getEncoder().encodeToString(mac.doFinal());
    }

    private static Mac newMac() {
        try {
            return Mac.getInstance(ALGORITHM);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }
}
