package io.vrmq.standalone;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

import java.util.Map;

/**
 * The standalone jar's logging, set up in code: the same appender, pattern and levels as the {@code logback.xml}
 * beside it, without logback's XML configurator. Reading that file (an XML parser and Joran's model, some 600 classes
 * loaded and run once) was about a tenth of the time from {@code java -jar} to the first routed send; this needs
 * fewer than half of those classes. Logback finds this class through {@code META-INF/services} before its XML
 * configurator. {@code -Dlogback.configurationFile=my-logback.xml} still works: then this steps aside and logback
 * reads that file (start from the {@code logback.xml} in the jar). {@code StandaloneLoggingTest} checks that the two
 * give the same levels and pattern. Called once by logback, on the thread that logs first.
 */
public final class StandaloneLogging extends ContextAwareBase implements Configurator {
    /** The property with which logback reads a file of the user's instead. */
    static final String CONFIGURATION_FILE_PROPERTY = "logback.configurationFile";
    static final String APPENDER_NAME = "STDOUT";
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{24} - %msg%n";
    static final Level ROOT_LEVEL = Level.INFO;
    /**
     * Below the root's level: Netty's INFO is noise; Ratis (the embedded controller) logs every election step at INFO,
     * and while a peer is down a failed connect (ERROR) and a failed append (WARN) about every 100 ms, which the
     * admin API shows better.
     */
    static final Map<String, Level> LEVELS = Map.of(
        "io.netty", Level.WARN,
        "io.vertx", Level.INFO,
        "org.apache.ratis", Level.WARN,
        "org.apache.ratis.util.LifeCycle", Level.OFF,
        "org.apache.ratis.server.leader.LogAppender", Level.ERROR);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty(CONFIGURATION_FILE_PROPERTY) != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName(APPENDER_NAME);
        appender.setEncoder(encoder);
        appender.start();
        LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(ROOT_LEVEL);
        root.addAppender(appender);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
