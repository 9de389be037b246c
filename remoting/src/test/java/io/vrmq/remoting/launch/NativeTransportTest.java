package io.vrmq.remoting.launch;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which transport a process asks for, read before Vert.x exists: every role that knows {@code useEpollNativeSelector}
 * must leave it on, from its defaults, its file or a system property; a role without the key has no say.
 */
class NativeTransportTest {
    private static final String WITH_KEY = "transport-defaults.json";
    private static final String WITHOUT_KEY = "lifecycle-defaults.json";

    @AfterEach
    void clearProperty() {
        System.clearProperty(NativeTransport.KEY);
    }

    @Test
    void rolesThatLeaveTheKeyOnAskForEpoll() {
        assertTrue(NativeTransport.wanted(List.of(role(WITH_KEY, null), role(WITHOUT_KEY, null))));
    }

    @Test
    void oneRoleFileTurningItOffGivesTheWholeProcessNio(@TempDir Path dir) throws IOException {
        Path off = write(dir.resolve("off.json"), new JsonObject().put(NativeTransport.KEY, false));
        assertFalse(NativeTransport.wanted(List.of(role(WITH_KEY, null), role(WITH_KEY, off.toString()))));
    }

    @Test
    void aSystemPropertyWinsOverTheFile(@TempDir Path dir) throws IOException {
        Path off = write(dir.resolve("off.json"), new JsonObject().put(NativeTransport.KEY, false));
        System.setProperty(NativeTransport.KEY, "true");
        assertTrue(NativeTransport.wanted(List.of(role(WITH_KEY, off.toString()))));
        System.setProperty(NativeTransport.KEY, "false");
        assertFalse(NativeTransport.wanted(List.of(role(WITH_KEY, null))));
    }

    @Test
    void aRoleWithoutTheKeyIgnoresItInItsFile(@TempDir Path dir) throws IOException {
        Path off = write(dir.resolve("off.json"), new JsonObject().put(NativeTransport.KEY, false));
        assertTrue(NativeTransport.wanted(List.of(role(WITHOUT_KEY, off.toString()))));
    }

    @Test
    void aBrokenFileLeavesTheDefaultForTheFullLoadToRefuse(@TempDir Path dir) throws IOException {
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"useEpollNativeSelector\": ");
        Path wrongType = write(dir.resolve("wrong.json"), new JsonObject().put(NativeTransport.KEY, "maybe"));
        assertTrue(NativeTransport.wanted(List.of(role(WITH_KEY, broken.toString()),
            role(WITH_KEY, wrongType.toString()), role(WITH_KEY, dir.resolve("missing.json").toString()))));
    }

    private static RoleLauncher.Role role(String defaults, String file) {
        return new RoleLauncher.Role(defaults, file, config -> null);
    }

    private static Path write(Path file, JsonObject json) throws IOException {
        return Files.writeString(file, json.encode(), StandardCharsets.UTF_8);
    }
}
