package io.vrmq.compat.support;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Everything a compat test class starts: child JVMs (NameServers, brokers, controllers) and official clients.
 *
 * <p>What a test method starts is closed after that method, what {@code @BeforeAll} starts after the class; newest
 * first, each even if an earlier one failed, and even when the test failed. When a test or a lifecycle method fails,
 * the tails of the logs of the child JVMs still registered are added to the error, so a failure report says what the
 * servers saw. Register as a static field with {@code @RegisterExtension}; JUnit calls it on the test thread only.
 */
public final class CompatResources implements BeforeEachCallback, AfterEachCallback, AfterAllCallback,
    TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    /** Closes slower than this are printed into the test's output file: what a class's teardown costs. */
    private static final long REPORTED_CLOSE_MS = 1_000;

    private final Deque<AutoCloseable> classScoped = new ArrayDeque<>();
    private final Deque<AutoCloseable> methodScoped = new ArrayDeque<>();
    private final List<ChildJvm> children = new ArrayList<>();
    private boolean isInTestMethod;

    /** Starts the selected NameServer (see {@link NameServerKind}) and closes it with the scope. */
    public RunningNameServer nameServer(Path dir, NameServerSettings settings) {
        return track(NameServerKind.startSelected(dir, settings));
    }

    /** Starts an Apache broker registering with {@code nameServers} and closes it with the scope. */
    public ApacheBroker broker(Path dir, String clusterName, String brokerName, List<RunningNameServer> nameServers) {
        return broker(dir, clusterName, brokerName, nameServers, Map.of());
    }

    /** Like {@link #broker(Path, String, String, List)}, with further broker.conf properties (a slave role). */
    public ApacheBroker broker(Path dir, String clusterName, String brokerName, List<RunningNameServer> nameServers,
                               Map<String, String> extraProperties) {
        ApacheBroker broker = ApacheBroker.start(dir, clusterName, brokerName, nameServers, extraProperties);
        children.add(broker.process());
        closeLater(broker);
        return broker;
    }

    /** Starts one of our controllers (node n0, leading) with further controller.json keys; closes it with the scope. */
    public VrmqController controller(Path dir, Map<String, ?> extraConfig) {
        VrmqController controller = VrmqController.startSingle(dir, extraConfig);
        children.add(controller.process());
        closeLater(controller);
        return controller;
    }

    /** Tracks a NameServer started elsewhere (e.g. a restart) for cleanup and failure reports. */
    public RunningNameServer track(RunningNameServer nameServer) {
        children.add(nameServer.process());
        closeLater(nameServer);
        return nameServer;
    }

    /** Closes {@code resource} when the current scope (test method, or class for @BeforeAll) ends. */
    public <T extends AutoCloseable> T closeLater(T resource) {
        (isInTestMethod ? methodScoped : classScoped).push(resource);
        return resource;
    }

    /**
     * Like {@link #closeLater}, for the shutdown of an official client (producer, consumer, admin, remoting client)
     * under its own instance name: clients registered one after another shut down concurrently, still after
     * everything registered later and before everything registered earlier. Each official client's shutdown ends
     * by waiting out its remoting event thread's 3 s poll; one after another that was 3 s per client.
     */
    public <T extends AutoCloseable> T closeClientLater(T client) {
        closeLater(new ClientShutdown(client));
        return client;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        isInTestMethod = true;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        isInTestMethod = false;
        closeAll(methodScoped);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        closeAll(classScoped);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withChildLogs(throwable);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
        throws Throwable {
        throw withChildLogs(throwable);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable throwable)
        throws Throwable {
        throw withChildLogs(throwable);
    }

    private Throwable withChildLogs(Throwable failure) {
        if (failure instanceof TestAbortedException || children.isEmpty()) {
            return failure;
        }
        StringBuilder logs = new StringBuilder(String.valueOf(failure.getMessage()));
        for (ChildJvm child : children) {
            logs.append(child.describeLog());
        }
        AssertionError withLogs = new AssertionError(logs.toString(), failure);
        withLogs.setStackTrace(failure.getStackTrace());
        return withLogs;
    }

    private void closeAll(Deque<AutoCloseable> resources) throws Exception {
        Throwable first = null;
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.peek() instanceof ClientShutdown ? ClientShutdowns.take(resources)
                : resources.pop();
            long startNanos = System.nanoTime();
            try {
                resource.close();
                long closeMs = (System.nanoTime() - startNanos) / 1_000_000;
                if (closeMs > REPORTED_CLOSE_MS) {
                    System.out.println("closed " + resource + " in " + closeMs + " ms");
                }
            } catch (Exception | AssertionError e) {    // e.g. a NameServer that ignored SIGTERM: close the rest
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
            if (resource instanceof ApacheBroker broker) {
                children.remove(broker.process());
            } else if (resource instanceof RunningNameServer nameServer) {
                children.remove(nameServer.process());
            } else if (resource instanceof VrmqController controller) {
                children.remove(controller.process());
            }
        }
        if (first instanceof Exception exception) {
            throw exception;
        }
        if (first instanceof AssertionError assertionError) {
            throw assertionError;
        }
    }

    /** One official client's shutdown, registered by {@link #closeClientLater}. */
    record ClientShutdown(AutoCloseable shutdown) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            shutdown.close();
        }
    }
}
