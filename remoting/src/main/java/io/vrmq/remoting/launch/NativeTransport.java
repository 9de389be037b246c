package io.vrmq.remoting.launch;

import io.vertx.core.Vertx;
import io.vrmq.remoting.config.RoleConfigLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Whether a process runs its sockets on Netty's native epoll transport (the netty-transport-native-epoll jar we ship
 * for Linux x86_64 and aarch64) or on Java NIO. The key and its default (off) are Apache RocketMQ's: measured side by
 * side on our broker, epoll was neither faster nor cheaper within the host's noise (benchmark/RESULTS.md, "Native
 * epoll transport"), so the default stays Apache's. Turned on, NIO stays the fallback where the native library
 * cannot load (another OS or CPU, a noexec temp directory), and the start says why, once.
 *
 * <p>The transport is fixed when Vert.x is built, before any role reads its config, so the key is read ahead with
 * {@link RoleConfigLoader#valueBeforeVertx}. One JVM has one transport: roles sharing a process (standalone) get epoll
 * only if every role that knows the key leaves it on. Called on the thread that runs {@code main}.
 */
public final class NativeTransport {
    public static final String KEY = "useEpollNativeSelector";
    private static final Logger log = LoggerFactory.getLogger(NativeTransport.class);

    private NativeTransport() {
    }

    /** Whether every role of {@code roles} whose defaults have {@link #KEY} leaves it true (true when none has it). */
    static boolean wanted(List<RoleLauncher.Role> roles) {
        for (RoleLauncher.Role role : roles) {
            Object value = RoleConfigLoader.valueBeforeVertx(role.defaultsResource(), role.configPath(), KEY);
            if (Boolean.FALSE.equals(value)) {
                return false;
            }
        }
        return true;
    }

    /** One line at start: the transport {@code vertx} runs on and, when it is NIO, why. */
    static void report(Vertx vertx, boolean wanted) {
        log.info(describe(vertx, wanted));
    }

    static String describe(Vertx vertx, boolean wanted) {
        if (vertx.isNativeTransportEnabled()) {
            return "transport: epoll (native, " + KEY + " true)";
        }
        if (!wanted) {
            return "transport: NIO (" + KEY + " false)";
        }
        Throwable cause = vertx.unavailableNativeTransportCause();
        return "transport: NIO (" + KEY + " true, but the native transport is unavailable: "
            + (cause == null ? "no cause given" : cause) + ")";
    }
}
