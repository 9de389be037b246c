package io.vrmq.load;

import io.vrmq.loadcommon.Json;

import java.util.Locale;

/**
 * What one run of {@link MessageLoadBench} measured; printed as one JSON line (prefixed "RESULT ") that
 * scripts/bench-vs-rocketmq.sh parses. Consumer fields are -1 without a consumer, broker fields -1 without
 * --watch-pid.
 *
 * @param send                    the measured send phase
 * @param consumed                messages of this run delivered at least once
 * @param consumeNanos            from the first to the last first delivery
 * @param consumeStartMillis      to the first delivery from starting the consumer (--consume after: route,
 *                                rebalance, first pull) or from the start of the sends (--consume concurrent)
 * @param lost                    answered SEND_OK, never delivered within the drain limits
 * @param duplicated              deliveries beyond the first of a message
 * @param deliveredUnacknowledged delivered though the send was not answered SEND_OK (a timed-out send)
 * @param brokerCpuSendMillis     the watched broker's CPU time (user + system) during the send phase
 * @param brokerCpuDrainMillis    ...and over the drain: --consume after, from the first delivery to the end (the
 *                                pull path); --consume concurrent, from the end of the send phase to the end
 * @param brokerCpuDrainStartMillis --consume after: from the end of the send phase to the first delivery (the
 *                                consumer's start and any wait for its heartbeat, consumeStartMillis); 0 otherwise
 * @param replicaCpuSendMillis    the --replica-pids processes' CPU time together during the send phase (-1: none)
 * @param brokerPeakRssKib        the watched broker's VmHWM at the end
 * @param brokerRssAnonKib        the watched broker's RssAnon at the end (heap and other anonymous memory)
 * @param clientCpuMillis         this JVM's CPU time over the whole run
 * @param scale                   producers, topics, owned queues and the idle phase (scripts/bench-scale.sh)
 */
record MessageLoadResult(MessageLoadOptions options, SendLoad.Summary send, long consumed, long consumeNanos,
                         long consumeStartMillis, long e2eP50Micros, long e2eP99Micros, long e2eP999Micros,
                         long lost, long duplicated,
                         long deliveredUnacknowledged, long brokerCpuSendMillis, long brokerCpuDrainMillis,
                         long brokerCpuDrainStartMillis, long replicaCpuSendMillis,
                         long brokerPeakRssKib, long brokerRssAnonKib, long clientCpuMillis,
                         ScaleFigures scale) {

    private static final double MIB = 1024.0 * 1024.0;

    double consumePerSecond() {
        return consumeNanos <= 0 ? (consumed > 0 ? consumed : 0) : consumed * 1e9 / consumeNanos;
    }

    String toJson() {
        MessageLoadOptions o = options;
        return String.format(Locale.ROOT, "{\"label\":%s,\"namesrv\":%s,\"topic\":%s,\"mode\":%s,\"threads\":%d,"
                + "\"window\":%d,\"rate\":%d,\"queues\":%d,\"size\":%d,\"consume\":%s,\"count\":%d,"
                + "\"attempted\":%d,\"sent\":%d,\"sendNotOk\":%d,\"sendErrors\":%d,\"sendSeconds\":%.3f,"
                + "\"sendPerSecond\":%.1f,\"sendMBPerSecond\":%.2f,\"sendP50Micros\":%d,\"sendP99Micros\":%d,"
                + "\"sendP999Micros\":%d,\"consumed\":%d,\"consumeSeconds\":%.3f,\"consumePerSecond\":%.1f,"
                + "\"consumeMBPerSecond\":%.2f,\"consumeStartMillis\":%d,\"e2eP50Micros\":%d,\"e2eP99Micros\":%d,"
                + "\"e2eP999Micros\":%d,\"lost\":%d,\"duplicated\":%d,\"deliveredUnacknowledged\":%d,"
                + "\"brokerCpuSendMillis\":%d,\"brokerCpuDrainMillis\":%d,\"brokerCpuDrainStartMillis\":%d,"
                + "\"replicaCpuSendMillis\":%d,"
                + "\"brokerPeakRssKib\":%d,\"brokerRssAnonKib\":%d,\"clientCpuMillis\":%d,%s,\"firstError\":%s}",
            Json.quote(o.label()), Json.quote(o.namesrvAddr()), Json.quote(o.topic()), Json.quote(o.mode()),
            o.threads(), o.window(), o.rate(), o.queues(), o.size(), Json.quote(o.consume()), o.count(),
            send.attempted(), send.ok(), send.notOk(), send.errors(), send.elapsedNanos() / 1e9, send.perSecond(),
            send.perSecond() * o.size() / MIB, send.p50Micros(), send.p99Micros(), send.p999Micros(), consumed,
            consumeNanos / 1e9, consumePerSecond(), consumePerSecond() * o.size() / MIB, consumeStartMillis,
            e2eP50Micros, e2eP99Micros, e2eP999Micros, lost, duplicated, deliveredUnacknowledged, brokerCpuSendMillis,
            brokerCpuDrainMillis, brokerCpuDrainStartMillis, replicaCpuSendMillis, brokerPeakRssKib, brokerRssAnonKib,
            clientCpuMillis, scale.jsonFields(), Json.quote(send.firstError()));
    }
}
