package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;
import io.vrmq.loadcommon.Json;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;

/**
 * One master failover of a broker set in controller mode (ours or Apache's), timed the way ControllerFailoverIT times
 * it: the official producer sends sync messages at --rate from --threads threads (route refresh every second, set
 * before start); after --settle-seconds (plus a random part of a second) the probe asks the controller leader who the
 * master is and SIGKILLs that broker's process (its pid from --brokers). Then, every 20 ms, it asks the controller
 * leader and the NameServer ({@link FailoverTimeline}: elected, routed, resynced) and watches the sends for the first
 * SEND_OK stored by a broker other than the killed one; once all four happened (or --timeout-seconds passed) it sends
 * --after-seconds more and stops. Prints a progress line a second, {@code KILLED <addr> at <time>}, and a final
 * {@code RESULT {json}} line with the times in ms from the kill (-1: not seen), the sends that failed from the kill to
 * the end (also counted by the kind of their innermost cause), and the new master. Exit code 1 when no election or no
 * first SEND_OK was seen. The topic (--queues queues) is created on the master through the TBW102 route and must be
 * on every broker before the kill.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.FailoverProbe --namesrv 127.0.0.1:9876 --controllers a;b;c
 *     --broker-name b1 --brokers 127.0.0.1:10911=4242,127.0.0.1:10921=4243,127.0.0.1:10931=4244 [--rate 500]</pre>
 */
public final class FailoverProbe {

    static final String USAGE = """
        usage: FailoverProbe --namesrv host:port --controllers host:port;host:port --broker-name name
                             --brokers addr=pid,addr=pid,... [--topic FailoverBench] [--queues 8] [--rate 500]
                             [--threads 4] [--size 1024] [--settle-seconds 3] [--after-seconds 2]
                             [--timeout-seconds 60] [--label name]""";
    private static final String DEFAULT_TOPIC = "FailoverBench";
    private static final long POLL_INTERVAL_MS = 20;
    private static final long PROGRESS_INTERVAL_MS = 1_000;
    private static final long TOPIC_TIMEOUT_MS = 60_000;
    private static final long POLL_NAME_SERVER_INTERVAL_MS = 1_000;

    private FailoverProbe() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        for (String required : List.of("namesrv", "controllers", "broker-name", "brokers")) {
            CommandLine.require(values.containsKey(required), "--" + required + " is required", USAGE);
        }
        Map<String, Long> pids = pids(values.get("brokers"));
        String topic = values.getOrDefault("topic", DEFAULT_TOPIC);
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        DefaultMQProducer producer = new DefaultMQProducer("failover_producer_"
            + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        producer.setNamesrvAddr(values.get("namesrv"));
        producer.setInstanceName(producer.getProducerGroup());
        producer.setPollNameServerInterval((int) POLL_NAME_SERVER_INTERVAL_MS);   // before start, or it is not used
        producer.start();
        PacedSender sender = null;
        boolean isDone;
        try {
            ControllerView view = new ControllerView(client, values.get("controllers"), values.get("broker-name"));
            createTopic(producer, view, topic, Integer.parseInt(values.getOrDefault("queues", "8")), pids.keySet());
            sender = new PacedSender(producer, topic, Integer.parseInt(values.getOrDefault("rate", "500")),
                Integer.parseInt(values.getOrDefault("threads", "4")),
                Integer.parseInt(values.getOrDefault("size", "1024")));
            sender.start();
            // Plus a random part of the producer's route-poll period: the poll timer starts with the producer, so a
            // fixed wait would kill at the same phase of it every run and bias the time to the first SEND_OK.
            Thread.sleep(TimeUnit.SECONDS.toMillis(Long.parseLong(values.getOrDefault("settle-seconds", "3")))
                + ThreadLocalRandom.current().nextLong(POLL_NAME_SERVER_INTERVAL_MS));
            isDone = failOver(view, client, sender, pids, values);
        } finally {
            if (sender != null) {
                sender.stop();
            }
            producer.shutdown();
            client.shutdown();
        }
        if (!isDone) {
            System.exit(1);
        }
    }

    /** Kills the master, watches the failover, prints the result; false if election or first SEND_OK timed out. */
    private static boolean failOver(ControllerView view, NettyRemotingClient client, PacedSender sender,
                                    Map<String, Long> pids, Map<String, String> values) throws InterruptedException {
        BrokerReplicasInfo.ReplicasInfo before = view.replicas();
        if (before == null || before.getMasterAddress() == null || !pids.containsKey(before.getMasterAddress())) {
            throw new IllegalStateException("no master of ours to kill: " + ControllerView.describe(before));
        }
        String killed = before.getMasterAddress();
        ProcessHandle process = ProcessHandle.of(pids.get(killed))
            .orElseThrow(() -> new IllegalStateException("no process " + pids.get(killed) + " for " + killed));
        String label = values.getOrDefault("label", "");
        long timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(values.getOrDefault("timeout-seconds", "60")));
        long okBeforeKill = sender.okCount();
        long failedBeforeKill = sender.failedCount();
        long killNanos = System.nanoTime();
        sender.markKill(killed, killNanos);
        process.destroyForcibly();                                       // SIGKILL
        System.out.println("KILLED " + killed + " at " + LocalTime.now(ZoneOffset.UTC) + " UTC");
        FailoverTimeline timeline = new FailoverTimeline(killNanos, killed, before.getMasterEpoch(), pids.size() - 1);
        long nextProgressNanos = killNanos;
        while (!timeline.isComplete(sender.firstOtherOkNanos()) && System.nanoTime() - killNanos < timeoutNanos) {
            timeline.observe(view, client, values.get("namesrv"), values.getOrDefault("topic", DEFAULT_TOPIC));
            if (System.nanoTime() >= nextProgressNanos) {
                long firstOkNanos = sender.firstOtherOkNanos();
                System.out.printf(Locale.ROOT, "[%s failover] t=%5.1fs ok=%d failed=%d %s firstSendOk=%s%n", label,
                    (System.nanoTime() - killNanos) / 1e9, sender.okCount(), sender.failedSinceKill(),
                    timeline.describe(), firstOkNanos == 0 ? "-" : timeline.millis(firstOkNanos) + "ms");
                nextProgressNanos += TimeUnit.MILLISECONDS.toNanos(PROGRESS_INTERVAL_MS);
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        long firstOkNanos = sender.firstOtherOkNanos();
        Thread.sleep(TimeUnit.SECONDS.toMillis(Long.parseLong(values.getOrDefault("after-seconds", "2"))));
        System.out.println("RESULT " + String.format(Locale.ROOT, "{\"label\":%s,%s,\"firstOkHost\":%s,"
                + "\"failedSends\":%d,\"okBeforeKill\":%d,\"failedBeforeKill\":%d,\"okAfterKill\":%d,"
                + "\"firstError\":%s,\"errorKinds\":%s}",
            Json.quote(label), timeline.jsonFields(firstOkNanos), Json.quote(sender.firstOtherOkHost()),
            sender.failedSinceKill(), okBeforeKill, failedBeforeKill, sender.okCount() - okBeforeKill,
            Json.quote(sender.firstErrorSinceKill()), errorKinds(sender.errorKindsSinceKill())));
        return timeline.isElected() && firstOkNanos != 0;
    }

    /** {"kind":count,...} as JSON. */
    private static String errorKinds(Map<String, Long> kinds) {
        StringBuilder json = new StringBuilder("{");
        kinds.forEach((kind, count) -> json.append(json.length() > 1 ? "," : "").append(Json.quote(kind)).append(':')
            .append(count));
        return json.append('}').toString();
    }

    /**
     * Creates the topic on the master through the TBW102 route (as the client's createTopic does; again on every run,
     * it is idempotent) and waits until the producer routes it and every broker holds it.
     */
    private static void createTopic(DefaultMQProducer producer, ControllerView view, String topic, int queues,
                                    Iterable<String> brokers) throws Exception {
        producer.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, topic, queues, null);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TOPIC_TIMEOUT_MS);
        for (String broker : brokers) {
            while (!view.brokerHasTopic(broker, topic)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topic " + topic + " not on " + broker + " within "
                        + TOPIC_TIMEOUT_MS + " ms");
                }
                Thread.sleep(POLL_INTERVAL_MS * 5);
            }
        }
        while (true) {
            List<MessageQueue> routed;
            try {
                routed = producer.fetchPublishMessageQueues(topic);
            } catch (Exception notYetRouted) {
                routed = List.of();
            }
            if (routed.size() >= queues) {
                System.out.println("topic " + topic + ": " + routed.size() + " queues routed, on every broker");
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " not routed within " + TOPIC_TIMEOUT_MS + " ms");
            }
            Thread.sleep(POLL_INTERVAL_MS * 5);
        }
    }

    /** "addr=pid,addr=pid" as a map. */
    private static Map<String, Long> pids(String brokers) {
        Map<String, Long> pids = new HashMap<>();
        for (String entry : brokers.split(",")) {
            String[] parts = entry.split("=");
            CommandLine.require(parts.length == 2, "--brokers wants addr=pid,addr=pid,... at '" + entry + "'", USAGE);
            pids.put(parts[0], Long.parseLong(parts[1]));
        }
        return pids;
    }
}
