package io.vrmq.standalone;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The logging set up in code is the one logback.xml describes (the file users start from for their own). */
class StandaloneLoggingTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void codeAndXmlGiveTheSameLevelsAndPattern() throws JoranException {
        LoggerContext fromCode = new LoggerContext();
        StandaloneLogging logging = new StandaloneLogging();
        logging.setContext(fromCode);
        logging.configure(fromCode);
        LoggerContext fromXml = new LoggerContext();
        JoranConfigurator joran = new JoranConfigurator();
        joran.setContext(fromXml);
        joran.doConfigure(StandaloneLoggingTest.class.getResource("/logback.xml"));

        for (String name : StandaloneLogging.LEVELS.keySet()) {
            assertEquals(fromXml.getLogger(name).getLevel(), fromCode.getLogger(name).getLevel(), name);
        }
        assertEquals(fromXml.getLogger(Logger.ROOT_LOGGER_NAME).getLevel(),
            fromCode.getLogger(Logger.ROOT_LOGGER_NAME).getLevel());
        assertEquals(pattern(fromXml), pattern(fromCode));
        assertEquals(StandaloneLogging.LEVELS.size(), fromXml.getLoggerList().stream()
            .filter(logger -> logger.getLevel() != null && !logger.getName().equals(Logger.ROOT_LOGGER_NAME)).count(),
            "logback.xml sets no level the code does not");
    }

    @SuppressWarnings("unchecked")
    private static String pattern(LoggerContext context) {
        ConsoleAppender<ILoggingEvent> appender = (ConsoleAppender<ILoggingEvent>) context
            .getLogger(Logger.ROOT_LOGGER_NAME).getAppender(StandaloneLogging.APPENDER_NAME);
        return ((PatternLayoutEncoder) appender.getEncoder()).getPattern();
    }
}
