package io.vrmq.remoting.auth;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The official hook's signature: values sorted by key in String order (upper case first), then the body. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class RequestSignatureTest {
    private static String hmac(String secret, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(mac.doFinal(data));
    }

    @Test
    void theSignedTextIsTheSortedValuesThenTheBody() throws Exception {
        RemotingCommand request = RemotingCommand.request(310, Map.of("b", "TopicB", "a", "PG", "e", "1"),
            Buffer.buffer("hello"));
        RemotingCommand signed = RequestSignature.sign(request, "ak", "sk");
        // AccessKey sorts before a, b, e; Signature is not signed.
        assertEquals(hmac("sk", "akPGTopicB1hello".getBytes(StandardCharsets.UTF_8)), signed.ext("Signature"));
        assertEquals("ak", signed.ext("AccessKey"));
        assertEquals(signed.ext("Signature"), RequestSignature.expected(signed, "sk"));
    }

    @Test
    void aRequestWithoutBodySignsItsValuesAlone() throws Exception {
        RemotingCommand signed = RequestSignature.sign(RemotingCommand.request(34), "ak", "sk");
        assertEquals(hmac("sk", "ak".getBytes(StandardCharsets.UTF_8)), signed.ext("Signature"));
    }

    @Test
    void theUniqueKeyFlagIsLeftOutOnlyForSendersOf493AndOlder() throws Exception {
        Map<String, String> fields = Map.of("AccessKey", "ak", "_UNIQUE_KEY_QUERY", "true", "topic", "t");
        RemotingCommand old = new RemotingCommand(12, io.vrmq.remoting.protocol.LanguageCode.JAVA,
            RequestSignature.VERSION_4_9_3, 1, 0, null, fields, null,
            io.vrmq.remoting.protocol.SerializeType.JSON);
        assertEquals(hmac("sk", "akt".getBytes(StandardCharsets.UTF_8)), RequestSignature.expected(old, "sk"));
        RemotingCommand current = RemotingCommand.request(12, fields, null);
        assertEquals(hmac("sk", "aktruet".getBytes(StandardCharsets.UTF_8)),
            RequestSignature.expected(current, "sk"));
    }

    @Test
    void matchingComparesWholeStrings() {
        assertTrue(RequestSignature.matches("abc=", "abc="));
        assertFalse(RequestSignature.matches("abc=", "abd="));
        assertFalse(RequestSignature.matches("abc=", null));
    }
}
