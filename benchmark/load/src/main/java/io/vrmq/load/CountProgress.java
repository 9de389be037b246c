package io.vrmq.load;

import io.vrmq.loadcommon.ProgressLine;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A progress line every 2 s for a phase that counts towards a known total ("[pop backlog] 12000 of 100000 (12%),
 * about 35 s left", {@link ProgressLine#howFar}), for the tools without a richer line of their own. Owns its daemon
 * thread; started and closed by the phase's thread.
 */
final class CountProgress implements AutoCloseable {

    private static final long INTERVAL_MS = 2_000;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "bench-progress");
        thread.setDaemon(true);
        return thread;
    });

    /** Prints "[label] how far" every 2 s until closed; {@code done} is read on the progress thread. */
    CountProgress(String label, LongSupplier done, long total) {
        long startNanos = System.nanoTime();
        timer.scheduleAtFixedRate(() -> System.out.println("[" + label + "] "
                + ProgressLine.howFar(done.getAsLong(), total, System.nanoTime() - startNanos)),
            INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
