package io.vrmq.broker.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The RocketMQ 5 SDKs' authorization header, checked against the broker's users. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class GrpcAuthorizationTest {
    private static final String DATE_TIME = "20261201T120000Z";
    /** HMAC-SHA1("alice-secret", DATE_TIME), computed outside Java (Python's hmac). */
    private static final String SIGNATURE = "0338f64c05bfb69525750973d537921ae38ee4dd";

    private final AuthMetadata metadata = new AuthMetadata();
    private final GrpcAuthorization authorization = new GrpcAuthorization(metadata);

    GrpcAuthorizationTest() {
        metadata.createUser(new User("alice", "alice-secret", null, null));
        metadata.createUser(new User("carol", "carol-secret", null, UserStatus.DISABLE));
    }

    private static String header(String credential, String signature) {
        return "MQv2-HMAC-SHA1 Credential=" + credential + ", SignedHeaders=x-mq-date-time, Signature=" + signature;
    }

    private String refusal(String header, String dateTime) {
        return assertThrows(AuthException.class, () -> authorization.authenticate(header, dateTime)).getMessage();
    }

    @Test
    void javasUpperCaseAndGosLowerCaseWithSuffixBothPass() {
        assertEquals("alice", authorization.authenticate(header("alice", SIGNATURE.toUpperCase(Locale.ROOT)),
            DATE_TIME));
        assertEquals("alice", authorization.authenticate(header("alice//Rocketmq", SIGNATURE), DATE_TIME));
    }

    @Test
    void aWrongSecretOrAnotherDateTimeFailsTheSignature() {
        assertEquals("check signature failed.", refusal(header("alice", "00" + SIGNATURE.substring(2)), DATE_TIME));
        assertEquals("check signature failed.", refusal(header("alice", SIGNATURE), "20261201T120001Z"));
        assertEquals("check signature failed.", refusal(header("alice", SIGNATURE), null));
        assertEquals("check signature failed.", refusal("MQv2-HMAC-SHA1 Credential=alice", DATE_TIME));
    }

    @Test
    void noHeaderAnUnknownUserAndADisabledUserAreRefused() {
        assertEquals("username cannot be null.", refusal(null, DATE_TIME));
        assertEquals("username cannot be null.", refusal("", DATE_TIME));
        assertEquals("User:mallory is not found.", refusal(header("mallory", SIGNATURE), DATE_TIME));
        assertEquals("User:carol is disabled.", refusal(header("carol", SIGNATURE), DATE_TIME));
    }

    @Test
    void theAccessKeyIsTheCredentialBeforeAnySlash() {
        assertEquals("alice", GrpcAuthorization.accessKey(header("alice/20261201/Rocketmq", SIGNATURE)));
        assertNull(GrpcAuthorization.accessKey("MQv2-HMAC-SHA1 SignedHeaders=x-mq-date-time"));
        assertNull(GrpcAuthorization.accessKey("garbage"));
    }
}
