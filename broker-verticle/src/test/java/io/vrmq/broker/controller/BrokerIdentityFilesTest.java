package io.vrmq.broker.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The brokerIdentity files in RocketMQ's text forms, on a real temp dir. */
class BrokerIdentityFilesTest {

    @Test
    void aNewBrokerHasNeitherFile(@TempDir Path dir) {
        BrokerIdentityFiles files = new BrokerIdentityFiles(dir.resolve("brokerIdentity").toString());
        assertNull(files.readAssigned());
        assertNull(files.readApplied());
    }

    @Test
    void anApplicationIsWrittenInRocketMqsTempFormAndConfirmingReplacesIt(@TempDir Path dir) throws Exception {
        Path identity = dir.resolve("brokerIdentity");
        BrokerIdentityFiles files = new BrokerIdentityFiles(identity.toString());
        files.writeApplied(new BrokerIdentityFiles.Applied("c1", "b1", 2, "127.0.0.1:10911;1700000000000"));
        assertEquals("c1#b1#2#127.0.0.1:10911;1700000000000",
            Files.readString(dir.resolve("brokerIdentity-temp"), StandardCharsets.UTF_8));

        files.confirm(new BrokerIdentityFiles.Assigned("c1", "b1", 2));

        assertEquals("c1#b1#2", Files.readString(identity, StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("brokerIdentity-temp")));
        assertEquals(new BrokerIdentityFiles.Assigned("c1", "b1", 2), files.readAssigned());
    }

    @Test
    void aFileWrittenByApacheRocketMqIsRead(@TempDir Path dir) throws Exception {
        Path identity = dir.resolve("brokerIdentity");
        Files.writeString(identity, "DefaultCluster#broker-a#3", StandardCharsets.UTF_8);

        assertEquals(new BrokerIdentityFiles.Assigned("DefaultCluster", "broker-a", 3),
            new BrokerIdentityFiles(identity.toString()).readAssigned());
    }

    @Test
    void rewritingKeepsThePreviousContentInTheBakFile(@TempDir Path dir) throws Exception {
        Path identity = dir.resolve("brokerIdentity");
        BrokerIdentityFiles files = new BrokerIdentityFiles(identity.toString());
        files.confirm(new BrokerIdentityFiles.Assigned("c1", "b1", 1));
        files.confirm(new BrokerIdentityFiles.Assigned("c1", "b1", 4));

        assertEquals("c1#b1#1", Files.readString(dir.resolve("brokerIdentity.bak"), StandardCharsets.UTF_8));
        assertEquals(4, files.readAssigned().brokerId());
    }

    @Test
    void aDamagedFileStopsWithItsName(@TempDir Path dir) throws Exception {
        Path identity = dir.resolve("brokerIdentity");
        Files.writeString(identity, "c1#b1", StandardCharsets.UTF_8);

        IllegalStateException error = assertThrows(IllegalStateException.class,
            () -> new BrokerIdentityFiles(identity.toString()).readAssigned());
        assertEquals(identity + " is not clusterName#brokerName#brokerId: c1#b1", error.getMessage());
    }
}
