package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;

/**
 * Waits until a controller group (ours or Apache's) reports a broker set with a master and at least --replicas alive
 * replicas in its SyncStateSet, asking every 100 ms through {@link ControllerView}; with --topic, also until every
 * replica answers GET_TOPIC_CONFIG for that topic (slaves copy the master's topics every few seconds, and a slave
 * without the topic could not take its writes after a failover). With --replicas 0: only until a controller leader
 * answers. Prints a progress line every 5 s and then {@code IN_SYNC master=<addr> epoch=<n>}; exit code 1 at the
 * timeout.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.AwaitSyncStateSet --controllers 127.0.0.1:9878;127.0.0.1:9879
 *     --broker-name b1 [--replicas 3] [--topic T] [--timeout-seconds 180]</pre>
 */
public final class AwaitSyncStateSet {

    static final String USAGE = """
        usage: AwaitSyncStateSet --controllers host:port;host:port --broker-name name [--replicas 3] [--topic T]
                                 [--timeout-seconds 180]""";
    private static final long POLL_INTERVAL_MS = 100;
    private static final long PROGRESS_INTERVAL_MS = 5_000;

    private AwaitSyncStateSet() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        String controllers = values.get("controllers");
        String brokerName = values.get("broker-name");
        CommandLine.require(controllers != null && brokerName != null, "--controllers and --broker-name are required",
            USAGE);
        int replicas = Integer.parseInt(values.getOrDefault("replicas", "3"));
        String topic = values.get("topic");
        long timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(values.getOrDefault("timeout-seconds", "180")));
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        boolean ready;
        try {
            ready = await(new ControllerView(client, controllers, brokerName), replicas, topic, timeoutNanos);
        } finally {
            client.shutdown();
        }
        if (!ready) {
            System.exit(1);
        }
    }

    private static boolean await(ControllerView view, int replicas, String topic, long timeoutNanos)
        throws InterruptedException {
        long startNanos = System.nanoTime();
        long nextProgressNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(PROGRESS_INTERVAL_MS);
        String state = "nothing asked yet";
        while (System.nanoTime() - startNanos < timeoutNanos) {
            if (replicas == 0) {
                if (view.leader() != null) {
                    System.out.println("IN_SYNC leader=" + view.leader());
                    return true;
                }
            } else {
                BrokerReplicasInfo.ReplicasInfo set = view.replicas();
                state = ControllerView.describe(set);
                if (set != null && set.getMasterAddress() != null && !set.getMasterAddress().isEmpty()
                    && ControllerView.aliveInSync(set) >= replicas) {
                    List<String> missing = topic == null ? List.of() : set.getInSyncReplicas().stream()
                        .map(BrokerReplicasInfo.ReplicaIdentity::getBrokerAddress)
                        .filter(address -> !view.brokerHasTopic(address, topic)).toList();
                    if (missing.isEmpty()) {
                        System.out.println("IN_SYNC master=" + set.getMasterAddress() + " epoch="
                            + set.getMasterEpoch());
                        return true;
                    }
                    state += ", topic " + topic + " not yet on " + missing;
                }
            }
            if (System.nanoTime() > nextProgressNanos) {
                System.out.printf("waiting %.0f s: %s%n", (System.nanoTime() - startNanos) / 1e9, state);
                nextProgressNanos += TimeUnit.MILLISECONDS.toNanos(PROGRESS_INTERVAL_MS);
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        System.out.println("timed out: " + state);
        return false;
    }
}
