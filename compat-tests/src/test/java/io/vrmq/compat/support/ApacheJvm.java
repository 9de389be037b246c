package io.vrmq.compat.support;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The java command-line arguments that start one of Apache RocketMQ's server main classes (NameServer, broker) from
 * this module's test classpath, small and quiet.
 *
 * <p>Both read {@code rocketmq.home.dir} (or ROCKETMQ_HOME) and refuse to start without it, and default their logs
 * and stores to {@code ${user.home}}; pointing both at the child's own directory keeps everything in the test's temp
 * dir. Their shaded logback would pick whichever rmq.*.logback.xml comes first on the classpath and log to files;
 * {@code rmq.logback.configurationFile} sends the logs to stdout, which {@link ChildJvm} captures.
 *
 * <p>Their remoting server reads its TLS mode from the {@code tls.server.mode} system property (Apache's default,
 * permissive, serves TLS and plain on one port). Any mode but disabled builds a self-signed certificate at start, an
 * RSA key that costs seconds of CPU per server port in a C1-only JVM: the caller says which mode it needs.
 */
final class ApacheJvm {

    /** Small heap, one GC thread, C1 only: faster start and less CPU on a shared 2-core machine. */
    private static final List<String> SMALL_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final String LOGBACK_RESOURCE = "rmq-compat-logback.xml";

    private ApacheJvm() {
    }

    /** Apache's name of the TLS mode property; "disabled" for a server that no test reaches over TLS. */
    static final String TLS_SERVER_MODE_PROPERTY = "tls.server.mode";
    static final String TLS_DISABLED = "disabled";

    static List<String> arguments(Path dir, String tlsServerMode, String mainClass, String... programArguments) {
        List<String> arguments = new ArrayList<>(SMALL_JVM);
        arguments.add("-D" + TLS_SERVER_MODE_PROPERTY + "=" + tlsServerMode);
        arguments.add("-Duser.home=" + dir);
        arguments.add("-Drocketmq.home.dir=" + dir);
        arguments.add("-Drmq.logback.configurationFile=" + logbackConfig());
        arguments.add("-cp");
        arguments.add(testClasspath());
        arguments.add(mainClass);
        arguments.addAll(List.of(programArguments));
        return arguments;
    }

    /** Surefire/failsafe may run the tests from a manifest-only jar; this property then holds the real classpath. */
    private static String testClasspath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static String logbackConfig() {
        URL resource = ApacheJvm.class.getClassLoader().getResource(LOGBACK_RESOURCE);
        if (resource == null) {
            throw new IllegalStateException(LOGBACK_RESOURCE + " is not on the test classpath");
        }
        try {
            return Path.of(resource.toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("bad resource URL " + resource, e);
        }
    }
}
