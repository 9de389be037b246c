package io.vrmq.remoting.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** Nothing or one -conf (the role reads it itself) starts without the launcher's parser; any option needs it. */
    @Test
    void onlyALauncherOptionNeedsTheLaunchersParser() {
        assertFalse(RoleLauncher.needsTheLauncher(new String[0]));
        assertFalse(RoleLauncher.needsTheLauncher(new String[] {"-conf", "broker.json"}));
        assertFalse(RoleLauncher.needsTheLauncher(new String[] {"--conf", "broker.json"}));
        assertFalse(RoleLauncher.needsTheLauncher(new String[] {"-conf=broker.json"}));

        assertTrue(RoleLauncher.needsTheLauncher(new String[] {"-conf"}));   // the launcher says what is missing
        assertTrue(RoleLauncher.needsTheLauncher(new String[] {"-options", "{}"}));
        assertTrue(RoleLauncher.needsTheLauncher(new String[] {"-conf", "broker.json", "--instances", "2"}));
        assertTrue(RoleLauncher.needsTheLauncher(new String[] {"-no-such-option"}));
        assertTrue(RoleLauncher.needsTheLauncher(new String[] {"-h"}));
    }

    @Test
    void nettysJfrEventsAreOffUnlessAPropertySaysOtherwise() {
        String before = System.getProperty(NettyJfrEvents.PROPERTY);
        try {
            System.clearProperty(NettyJfrEvents.PROPERTY);
            NettyJfrEvents.offUnlessAsked();
            assertEquals("false", System.getProperty(NettyJfrEvents.PROPERTY));

            System.setProperty(NettyJfrEvents.PROPERTY, "true");
            NettyJfrEvents.offUnlessAsked();
            assertEquals("true", System.getProperty(NettyJfrEvents.PROPERTY));
        } finally {
            if (before == null) {
                System.clearProperty(NettyJfrEvents.PROPERTY);
            } else {
                System.setProperty(NettyJfrEvents.PROPERTY, before);
            }
        }
    }

    @Test
    void theBaseOptionsTurnTheFileCacheOffAndSetTheTransportOverWhatTheLauncherParsed() {
        var options = RoleLauncher.applyBaseOptions(new io.vertx.core.VertxOptions().setEventLoopPoolSize(3)
            .setPreferNativeTransport(true), false);

        assertEquals(3, options.getEventLoopPoolSize());
        assertEquals(false, options.getFileSystemOptions().isFileCachingEnabled());
        assertEquals(false, options.getPreferNativeTransport());
        assertEquals(true, RoleLauncher.applyBaseOptions(new io.vertx.core.VertxOptions(), true)
            .getPreferNativeTransport());
    }
}
