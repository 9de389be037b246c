package io.vrmq.load;

import io.vrmq.loadcommon.LatencyHistogram;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;

/**
 * One phase of closed-loop load: GET_ROUTEINFO_BY_TOPIC (105) sent asynchronously by the official remoting client,
 * at most {@code concurrency} in flight (a semaphore permit per request), for a duration or a request count.
 * Responses are checked for code 0 but their bodies are not decoded, so the client spends its CPU on the wire and
 * not on JSON. The main thread sends; the client's callback threads record. Not reusable: one instance per phase.
 */
final class RouteQueryLoad {

    /** If no response frees a permit for this long, the server is stuck: stop instead of hanging. */
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(30);
    private static final long PROGRESS_INTERVAL_MS = 1_000;

    private final NettyRemotingClient client;
    private final BenchOptions options;
    private final Semaphore inFlight;
    private final LatencyHistogram latencies = new LatencyHistogram();
    private final LongAdder successes = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    RouteQueryLoad(NettyRemotingClient client, BenchOptions options) {
        this.client = client;
        this.options = options;
        this.inFlight = new Semaphore(options.concurrency());
    }

    /** Sends for {@code duration} (or {@code requestCount} requests when > 0), then waits for the stragglers. */
    LoadResult run(String phase, Duration duration, long requestCount) throws InterruptedException {
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "bench-progress");
            thread.setDaemon(true);
            return thread;
        });
        long startNanos = System.nanoTime();
        progress.scheduleAtFixedRate(new ProgressPrinter(phase, startNanos), PROGRESS_INTERVAL_MS,
            PROGRESS_INTERVAL_MS, TimeUnit.MILLISECONDS);
        try {
            long deadlineNanos = startNanos + duration.toNanos();
            long sent = 0;
            while (requestCount > 0 ? sent < requestCount : System.nanoTime() < deadlineNanos) {
                acquire(1);
                send();
                sent++;
            }
            acquire(options.concurrency());    // every response is in
            long elapsedNanos = System.nanoTime() - startNanos;
            long completed = successes.sum();
            return new LoadResult(options.label(), options.namesrvAddr(), options.concurrency(), completed,
                errors.sum(), elapsedNanos, latencies.percentileMicros(0.50, completed),
                latencies.percentileMicros(0.99, completed), latencies.percentileMicros(0.999, completed),
                firstError.get());
        } finally {
            progress.shutdownNow();
        }
    }

    private void send() {
        GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
        header.setTopic(options.topic());
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header);
        long sentNanos = System.nanoTime();
        client.invoke(options.namesrvAddr(), request, options.requestTimeoutMs())
            .whenComplete((response, failure) -> {
                try {
                    if (failure != null) {
                        fail(failure.toString());
                    } else if (response.getCode() != ResponseCode.SUCCESS) {
                        fail("response code " + response.getCode() + ": " + response.getRemark());
                    } else {
                        latencies.record(System.nanoTime() - sentNanos);
                        successes.increment();
                    }
                } finally {
                    inFlight.release();
                }
            });
    }

    private void fail(String error) {
        errors.increment();
        firstError.compareAndSet(null, error);
    }

    private void acquire(int permits) throws InterruptedException {
        if (!inFlight.tryAcquire(permits, STALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("no response freed a slot for " + STALL_TIMEOUT + " (" + successes.sum()
                + " ok, " + errors.sum() + " errors so far; first error: " + firstError.get() + ")");
        }
    }

    /** Prints requests per second over the last interval; runs on the progress thread. */
    private final class ProgressPrinter implements Runnable {
        private final String phase;
        private final long startNanos;
        private long lastCount;
        private long lastNanos;

        ProgressPrinter(String phase, long startNanos) {
            this.phase = phase;
            this.startNanos = startNanos;
            this.lastNanos = startNanos;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            long count = successes.sum();
            double perSecond = (count - lastCount) * 1e9 / Math.max(1, now - lastNanos);
            System.out.printf(Locale.ROOT, "[%s %s] t=%4.1fs req/s=%9.0f ok=%d errors=%d%n", options.label(), phase,
                (now - startNanos) / 1e9, perSecond, count, errors.sum());
            lastCount = count;
            lastNanos = now;
        }
    }
}
