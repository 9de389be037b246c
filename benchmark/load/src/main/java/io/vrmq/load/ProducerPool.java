package io.vrmq.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettySystemConfig;

/**
 * The producers of one {@link MessageLoadBench} run: {@code --producers} official DefaultMQProducer instances, each
 * with its own instanceName, so each is its own MQClientInstance with its own TCP connection to the broker (and to
 * the NameServer): how the scale table counts connections. Message {@code seq} goes out through producer
 * {@code seq % size}. With more than one producer they share one async-send executor of the size each would
 * otherwise start for itself (the client's default: one thread per core), so that a thousand producers cost a
 * thousand connections rather than two thousand idle sender threads; a single producer keeps the client's own.
 * Likewise each instance starts a send accumulator (for autoBatch, off here and never used) whose two guard threads
 * wake every batchMaxDelayMs / 2 (5 ms by default): with more than one producer its delay is set to
 * {@link #IDLE_ACCUMULATOR_DELAY_MS}, or a thousand producers would spend the machine on 400,000 wake-ups a second.
 * For the same reason each instance of a pool gets one callback thread (clientCallbackExecutorThreads; the client's
 * default is one per core) and one netty worker thread (the client's {@code com.rocketmq.remoting.client.worker.size},
 * 4 by default, of which an instance with a NameServer and a broker connection starts 2): about ten threads an
 * instance rather than twelve. No setting changes what a send does.
 * Started and shut down by the main thread (on helper threads: each instance's start and shutdown is a few blocking
 * steps); {@link #producerFor} is called from the sending threads. The client's threads are not daemons: the JVM ends
 * with {@code System.exit} after {@link #shutdown}.
 */
final class ProducerPool {

    /** Parallel producer starts: enough to overlap their round trips, few enough for a 2-core machine. */
    private static final int START_THREADS = 8;
    /** Parallel shutdowns: they mostly wait (see {@link #shutdown}), so many threads cost little. */
    private static final int SHUTDOWN_THREADS = 256;
    private static final long SHUTDOWN_WAIT_SECONDS = 30;
    /** The longest batchMaxDelayMs the client accepts: its guard threads then sleep 15 s at a time. */
    private static final int IDLE_ACCUMULATOR_DELAY_MS = 30_000;
    private static final int ASYNC_QUEUE_CAPACITY = 50_000;
    private static final int POOLED_CALLBACK_THREADS = 1;
    private static final int POOLED_NETTY_WORKER_THREADS = 1;
    private static final int ROUTE_LOOKUP_ATTEMPTS = 3;
    private final AtomicInteger routeLookupRetries = new AtomicInteger();

    private final List<DefaultMQProducer> producers = new ArrayList<>();
    private final ExecutorService sharedAsyncSender;

    /**
     * @param runTag             names the group and the instances ({@code bench_producer_<tag>},
     *                           {@code bench-producer-<tag>-<i>})
     * @param compressOverBytes  the producers' compressMsgBodyOverHowmuch (bodies larger than this are zipped)
     */
    ProducerPool(MessageLoadOptions options, String runTag, RPCHook rpcHook, int compressOverBytes) {
        int cores = Runtime.getRuntime().availableProcessors();
        this.sharedAsyncSender = options.producers() == 1 ? null
            : new ThreadPoolExecutor(cores, cores, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(ASYNC_QUEUE_CAPACITY), namedThreads("bench-async-sender-"));
        if (sharedAsyncSender != null) {
            // read by each client instance as it is created (NettyClientConfig's default); no producer exists yet
            NettySystemConfig.clientWorkerSize = POOLED_NETTY_WORKER_THREADS;
        }
        for (int i = 0; i < options.producers(); i++) {
            DefaultMQProducer producer = new DefaultMQProducer("bench_producer_" + runTag, rpcHook);
            producer.setNamesrvAddr(options.namesrvAddr());
            producer.setInstanceName(options.producers() == 1 ? "bench-producer-" + runTag
                : "bench-producer-" + runTag + "-" + i);
            producer.setSendMsgTimeout(options.sendTimeoutMs());
            producer.setCompressMsgBodyOverHowmuch(compressOverBytes);
            if (sharedAsyncSender != null) {
                producer.setAsyncSenderExecutor(sharedAsyncSender);
                producer.batchMaxDelayMs(IDLE_ACCUMULATOR_DELAY_MS);
                producer.setClientCallbackExecutorThreads(POOLED_CALLBACK_THREADS);
            }
            producers.add(producer);
        }
    }

    /** Starts the first producer alone: it creates the topics before the others add their start-up traffic. */
    void startFirst() throws Exception {
        first().start();
    }

    /** Starts every other producer; fails with the first start that failed. */
    void startOthers() throws Exception {
        forEachInParallel(START_THREADS, "bench-producer-start-", producers.subList(1, producers.size()),
            DefaultMQProducer::start);
        if (producers.size() > 1) {
            System.out.println(producers.size() + " producers started (one client instance and connection each)");
        }
    }

    /**
     * Every producer fetches the routes of these topics now (one GET_ROUTEINFO_BY_TOPIC each), so that the measured
     * sends do not: a producer looks a topic up on its first send, inline, and with many producers sharing a small
     * async-send executor those lookups would hold up everyone's sends.
     */
    void learnRoutes(List<String> topics) throws Exception {
        forEachInParallel(START_THREADS, "bench-producer-route-", producers, producer -> {
            for (String topic : topics) {
                learnRoute(producer, topic);
            }
        });
    }

    /**
     * One lookup, tried up to {@link #ROUTE_LOOKUP_ATTEMPTS} times: while a thousand instances connect at once on
     * this 2-core host a lookup can time out at either side's NameServer, and one such timeout must not end the
     * whole row (it did, on Apache's side, in a quiet run of the 1,000-producer level).
     */
    private void learnRoute(DefaultMQProducer producer, String topic) {
        for (int attempt = 1; ; attempt++) {
            try {
                producer.getDefaultMQProducerImpl().getMqClientFactory().updateTopicRouteInfoFromNameServer(topic);
                return;
            } catch (RuntimeException e) {
                if (attempt == ROUTE_LOOKUP_ATTEMPTS) {
                    throw e;
                }
                routeLookupRetries.incrementAndGet();
            }
        }
    }

    /** Route lookups tried again so far (printed with the row, so a retried lookup is never silent). */
    int routeLookupRetries() {
        return routeLookupRetries.get();
    }

    /** The first producer: topic creation and route lookups. */
    DefaultMQProducer first() {
        return producers.get(0);
    }

    DefaultMQProducer producerFor(int seq) {
        return producers.get(seq % producers.size());
    }

    int size() {
        return producers.size();
    }

    /**
     * Shuts every producer down, waiting at most {@link #SHUTDOWN_WAIT_SECONDS}; the caller then ends the JVM. In
     * parallel: each instance's shutdown waits up to a few seconds for its remoting client's event thread to notice
     * (a poll with a timeout), which for a thousand instances one after the other would be most of an hour.
     */
    void shutdown() throws InterruptedException {
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(SHUTDOWN_THREADS, producers.size()),
            namedThreads("bench-producer-shutdown-"));
        producers.forEach(producer -> executor.execute(producer::shutdown));
        executor.shutdown();
        if (!executor.awaitTermination(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS)) {
            System.out.println("producers still shutting down after " + SHUTDOWN_WAIT_SECONDS + " s; exiting anyway");
        }
        if (sharedAsyncSender != null) {
            sharedAsyncSender.shutdownNow();
        }
    }

    /** Runs {@code step} on each producer from up to {@code threads} threads; fails with the first failure. */
    private static void forEachInParallel(int threads, String threadPrefix, List<DefaultMQProducer> producers,
                                          ProducerStep step) throws Exception {
        if (producers.isEmpty()) {
            return;
        }
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(threads, producers.size()),
            namedThreads(threadPrefix));
        try {
            List<Future<?>> steps = new ArrayList<>();
            for (DefaultMQProducer producer : producers) {
                steps.add(executor.submit(() -> {
                    step.apply(producer);
                    return null;
                }));
            }
            for (Future<?> done : steps) {
                done.get();
            }
        } finally {
            executor.shutdown();
        }
    }

    /** A producer's start or shutdown. */
    private interface ProducerStep {
        void apply(DefaultMQProducer producer) throws Exception;
    }

    private static ThreadFactory namedThreads(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }
}
