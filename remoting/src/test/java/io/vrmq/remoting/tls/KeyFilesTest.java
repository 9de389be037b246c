package io.vrmq.remoting.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KeyFilesTest {
    @Test
    void readsAPlainAndAnEncryptedPkcs8Key(@TempDir Path dir) throws Exception {
        TestKeyFiles plain = TestKeyFiles.write(dir, "plain", null);
        TestKeyFiles encrypted = TestKeyFiles.write(dir, "encrypted", "s3cret");
        assertEquals("EC", KeyFiles.privateKey(plain.keyPath().toString(), "").getAlgorithm());
        assertEquals("EC", KeyFiles.privateKey(encrypted.keyPath().toString(), "s3cret").getAlgorithm());
        assertNotNull(KeyFiles.keyManagers(encrypted.certPath().toString(), encrypted.keyPath().toString(),
            "s3cret").getKeyManagers()[0]);
    }

    @Test
    void anEncryptedKeyNeedsTheRightPassword(@TempDir Path dir) throws Exception {
        String key = TestKeyFiles.write(dir, "encrypted", "s3cret").keyPath().toString();
        GeneralSecurityException missing = assertThrows(GeneralSecurityException.class,
            () -> KeyFiles.privateKey(key, ""));
        assertTrue(missing.getMessage().contains("set its keyPassword"), missing.getMessage());
        assertThrows(GeneralSecurityException.class, () -> KeyFiles.privateKey(key, "wrong"));
    }
}
