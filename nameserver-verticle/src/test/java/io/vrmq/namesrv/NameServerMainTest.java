package io.vrmq.namesrv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plain NameServer refuses to start when asked for an embedded controller, which only the standalone jar has. */
class NameServerMainTest {

    @Test
    void aFileAskingForTheEmbeddedControllerIsRefusedWithAPointer(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("namesrv.json"),
            "{\"enableControllerInNamesrv\": true, \"controllerDLegerPeers\": \"n0-127.0.0.1:9878\"}");
        String refusal = NameServerMain.embeddedControllerRefusal(file.toString(), Map.of(), new Properties());
        assertTrue(refusal != null && refusal.contains("NameServerWithControllerMain"), refusal);
    }

    @Test
    void anEnvironmentVariableOrSystemPropertyAsksToo() {
        assertTrue(NameServerMain.embeddedControllerRefusal(null, Map.of("enableControllerInNamesrv", "true"),
            new Properties()) != null);
        Properties properties = new Properties();
        properties.setProperty("enableControllerInNamesrv", "TRUE");
        assertTrue(NameServerMain.embeddedControllerRefusal(null, Map.of(), properties) != null);
    }

    @Test
    void otherwiseTheStartGoesOn(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("namesrv.json"), "{\"enableControllerInNamesrv\": false}");
        assertNull(NameServerMain.embeddedControllerRefusal(file.toString(), Map.of(), new Properties()));
        assertNull(NameServerMain.embeddedControllerRefusal(null, Map.of(), new Properties()));
        assertNull(NameServerMain.embeddedControllerRefusal(dir.resolve("missing.json").toString(), Map.of(),
            new Properties()), "the loader reports a missing file itself");
    }
}
