package io.vrmq.compat.support;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The shutdowns of several official clients run concurrently, one thread each: the run of
 * {@link CompatResources.ClientShutdown}s at the top of a scope's stack, closed as one resource. Each client has its
 * own instance name, so no two share threads or connections and their order does not matter. A failure of one is
 * reported after all have ended, the others suppressed in it. Used by {@link CompatResources} on the test thread.
 */
final class ClientShutdowns implements AutoCloseable {

    /** An official client's shutdown takes about 3 s; this only bounds a hung one. */
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 60;

    private final List<CompatResources.ClientShutdown> shutdowns;

    private ClientShutdowns(List<CompatResources.ClientShutdown> shutdowns) {
        this.shutdowns = shutdowns;
    }

    /** Pops the client shutdowns at the top of {@code resources}, the newest first, as one resource. */
    static AutoCloseable take(Deque<AutoCloseable> resources) {
        List<CompatResources.ClientShutdown> taken = new ArrayList<>();
        while (resources.peek() instanceof CompatResources.ClientShutdown shutdown) {
            resources.pop();
            taken.add(shutdown);
        }
        return taken.size() == 1 ? taken.get(0) : new ClientShutdowns(taken);
    }

    @Override
    public void close() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(shutdowns.size(), runnable -> {
            Thread thread = new Thread(runnable, "compat-client-shutdown");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (CompatResources.ClientShutdown shutdown : shutdowns) {
                running.add(threads.submit(() -> {
                    shutdown.close();
                    return null;
                }));
            }
            Exception first = null;
            for (Future<?> shutdown : running) {
                try {
                    shutdown.get(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    Exception failure = e instanceof ExecutionException && e.getCause() instanceof Exception cause
                        ? cause : e;
                    if (first == null) {
                        first = failure;
                    } else {
                        first.addSuppressed(failure);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return shutdowns.size() + " official clients";
    }
}
