package io.vrmq.grpcload;

import io.vrmq.loadcommon.Json;

import java.util.Locale;

/**
 * What one run of {@link GrpcLoadBench} measured; printed as one JSON line (prefixed "RESULT ") that
 * scripts/bench-grpc-vs-rocketmq.sh parses. Receive fields are -1 without receivers (--consume none), process
 * fields -1 without --watch-pid / --proxy-pid.
 *
 * @param send                    the measured send phase
 * @param consumed                messages of this run delivered at least once
 * @param consumeNanos            from the first to the last first delivery
 * @param consumeStartMillis      to the first delivery from starting the consumer (--consume after: its start,
 *                                route, first receive) or from the start of the sends (--consume concurrent)
 * @param lost                    sent successfully, never delivered within the drain limits
 * @param duplicated              deliveries beyond the first of a message (an ack that came too late)
 * @param deliveredUnacknowledged delivered though its send failed (a send that timed out but was stored)
 * @param receivers               the receiving side's counts and ack latencies, or null
 * @param broker                  the broker's CPU and memory
 * @param proxy                   the proxy's CPU and memory (Apache's side)
 * @param clientCpuMillis         this JVM's CPU time over the whole run
 */
record GrpcLoadResult(GrpcLoadOptions options, GrpcSendLoad.Summary send, long consumed, long consumeNanos,
                      long consumeStartMillis, long e2eP50Micros, long e2eP99Micros, long e2eP999Micros, long lost,
                      long duplicated, long deliveredUnacknowledged, SimpleReceivers receivers,
                      WatchedProcess broker, WatchedProcess proxy, long clientCpuMillis) {

    private static final double MIB = 1024.0 * 1024.0;

    double consumePerSecond() {
        return consumeNanos <= 0 ? (consumed > 0 ? consumed : 0) : consumed * 1e9 / consumeNanos;
    }

    String toJson() {
        GrpcLoadOptions o = options;
        boolean hasReceivers = receivers != null;
        return String.format(Locale.ROOT, "{\"label\":%s,\"endpoints\":%s,\"topic\":%s,\"mode\":%s,\"threads\":%d,"
                + "\"window\":%d,\"rate\":%d,\"size\":%d,\"consume\":%s,\"receivers\":%d,\"batch\":%d,\"count\":%d,"
                + "\"attempted\":%d,\"sent\":%d,\"sendErrors\":%d,\"sendSeconds\":%.3f,\"sendPerSecond\":%.1f,"
                + "\"sendMBPerSecond\":%.2f,\"sendP50Micros\":%d,\"sendP99Micros\":%d,\"sendP999Micros\":%d,"
                + "\"consumed\":%d,\"consumeSeconds\":%.3f,\"consumePerSecond\":%.1f,\"consumeMBPerSecond\":%.2f,"
                + "\"consumeStartMillis\":%d,\"e2eP50Micros\":%d,\"e2eP99Micros\":%d,\"e2eP999Micros\":%d,"
                + "\"lost\":%d,\"duplicated\":%d,\"deliveredUnacknowledged\":%d,\"acked\":%d,\"ackFailures\":%d,"
                + "\"receiveFailures\":%d,\"ackP50Micros\":%d,\"ackP99Micros\":%d,"
                + "\"brokerCpuSendMillis\":%d,\"brokerCpuDrainMillis\":%d,\"proxyCpuSendMillis\":%d,"
                + "\"proxyCpuDrainMillis\":%d,\"brokerPeakRssKib\":%d,\"brokerRssAnonKib\":%d,"
                + "\"proxyPeakRssKib\":%d,\"proxyRssAnonKib\":%d,\"clientCpuMillis\":%d,\"firstError\":%s,"
                + "\"firstReceiveError\":%s}",
            Json.quote(o.label()), Json.quote(o.endpoints()), Json.quote(o.topic()), Json.quote(o.mode()),
            o.threads(), o.window(), o.rate(), o.size(), Json.quote(o.consume()), o.receivers(), o.batch(), o.count(),
            send.attempted(), send.ok(), send.errors(), send.elapsedNanos() / 1e9, send.perSecond(),
            send.perSecond() * o.size() / MIB, send.p50Micros(), send.p99Micros(), send.p999Micros(), consumed,
            consumeNanos / 1e9, consumePerSecond(), consumePerSecond() * o.size() / MIB, consumeStartMillis,
            e2eP50Micros, e2eP99Micros, e2eP999Micros, lost, duplicated, deliveredUnacknowledged,
            hasReceivers ? receivers.ackedCount() : -1, hasReceivers ? receivers.ackFailures() : -1,
            hasReceivers ? receivers.receiveFailures() : -1,
            hasReceivers ? receivers.ackLatencies().percentileMicros(0.50) : -1,
            hasReceivers ? receivers.ackLatencies().percentileMicros(0.99) : -1,
            broker.cpuSendMillis(), broker.cpuDrainMillis(hasReceivers), proxy.cpuSendMillis(),
            proxy.cpuDrainMillis(hasReceivers), broker.peakRssKib(), broker.rssAnonKib(), proxy.peakRssKib(),
            proxy.rssAnonKib(), clientCpuMillis, Json.quote(send.firstError()),
            Json.quote(hasReceivers ? receivers.firstError() : null));
    }
}
