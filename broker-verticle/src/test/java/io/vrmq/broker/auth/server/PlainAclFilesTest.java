package io.vrmq.broker.auth.server;

import io.vrmq.broker.auth.PlainAclAccount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class PlainAclFilesTest {
    @Test
    void accountsComeFromConfAclThenPlainAclAndTheFirstOfAnAccessKeyWins(@TempDir Path home) throws Exception {
        Files.createDirectories(home.resolve("conf/acl/more"));
        Files.writeString(home.resolve("conf/plain_acl.yml"), """
            globalWhiteRemoteAddresses:
              - 10.10.103.*
            accounts:
              - accessKey: RocketMQ
                secretKey: 12345678
                whiteRemoteAddress:
                admin: false
                defaultTopicPerm: DENY
                defaultGroupPerm: SUB
                topicPerms:
                  - topicA=DENY
                  - topicB=PUB|SUB
              - accessKey: shared
                secretKey: from-plain-acl
            """);
        Files.writeString(home.resolve("conf/acl/more/extra.yaml"), """
            accounts:
              - accessKey: shared
                secretKey: from-acl-dir
                admin: true
            """);
        List<PlainAclAccount> accounts = PlainAclFiles.read(home);
        assertEquals(List.of("shared", "RocketMQ"), accounts.stream().map(PlainAclAccount::accessKey).toList());
        assertEquals("from-acl-dir", accounts.get(0).secretKey());
        assertTrue(accounts.get(0).admin());
        assertEquals(List.of("topicA=DENY", "topicB=PUB|SUB"), accounts.get(1).topicPerms());
        assertEquals("DENY", accounts.get(1).defaultTopicPerm());
    }

    @Test
    void aFileCannotMakeObjectsOfAClass(@TempDir Path home) throws Exception {
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf/plain_acl.yml"),
            "accounts: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://x\"]]]]\n");
        assertThrows(IllegalArgumentException.class, () -> PlainAclFiles.read(home));
    }

    @Test
    void noFilesMeanNoAccounts(@TempDir Path home) {
        assertEquals(List.of(), PlainAclFiles.read(home));
    }
}
