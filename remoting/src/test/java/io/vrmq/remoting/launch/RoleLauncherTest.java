package io.vrmq.remoting.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(10)
class RoleLauncherTest {

    @Test
    void theStandaloneRoleFilesAreTakenOutAndTheLauncherOptionsStay() {
        String[] args = {"-namesrv-conf", "n.json", "-options", "vertx.json", "--broker-conf=b.json",
            "-controller-conf", "c.json"};

        assertArrayEquals(new String[] {"-options", "vertx.json"},
            RoleLauncher.withoutOptions(args, "namesrv-conf", "controller-conf", "broker-conf"));
        assertEquals("b.json", RoleLauncher.option(args, "broker-conf"));
        assertNull(RoleLauncher.option(args, "conf"));
    }

    @Test
    void theBaseOptionsTurnTheFileCacheOffOverWhatTheLauncherParsed() {
        var options = RoleLauncher.applyBaseOptions(new io.vertx.core.VertxOptions().setEventLoopPoolSize(3));

        assertEquals(3, options.getEventLoopPoolSize());
        assertEquals(false, options.getFileSystemOptions().isFileCachingEnabled());
    }
}
