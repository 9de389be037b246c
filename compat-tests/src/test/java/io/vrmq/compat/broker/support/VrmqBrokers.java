package io.vrmq.compat.broker.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.vrmq.compat.support.CompatResources;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Starts our brokers for a test class and adds the tail of each one's log to any failure, the way
 * {@link CompatResources} does for the NameServers. Brokers are closed through {@link CompatResources} with the scope
 * that started them (so clients started later are closed first). Register as a static field with
 * {@code @RegisterExtension} after the {@link CompatResources} field. JUnit calls it on the test thread only.
 */
public final class VrmqBrokers implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    private final CompatResources resources;
    private final List<VrmqBroker> brokers = new ArrayList<>();

    public VrmqBrokers(CompatResources resources) {
        this.resources = resources;
    }

    /** Starts a broker with {@code settings}, waits for its boot line, and stops it (SIGTERM) with the scope. */
    public VrmqBroker start(BrokerSettings settings) {
        return start(settings, Map.of());
    }

    /** Like {@link #start(BrokerSettings)}, with further broker.json keys (see {@link VrmqBroker}). */
    public VrmqBroker start(BrokerSettings settings, Map<String, ?> extraConfig) {
        VrmqBroker broker = VrmqBroker.start(settings, extraConfig);
        brokers.add(broker);
        resources.closeLater(broker);
        return broker;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withBrokerLogs(throwable);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
        throws Throwable {
        throw withBrokerLogs(throwable);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable throwable)
        throws Throwable {
        throw withBrokerLogs(throwable);
    }

    private Throwable withBrokerLogs(Throwable failure) {
        if (failure instanceof TestAbortedException || brokers.isEmpty()) {
            return failure;
        }
        StringBuilder logs = new StringBuilder(String.valueOf(failure.getMessage()));
        for (VrmqBroker broker : brokers) {
            logs.append(broker.describeLog());
        }
        AssertionError withLogs = new AssertionError(logs.toString(), failure);
        withLogs.setStackTrace(failure.getStackTrace());
        return withLogs;
    }
}
