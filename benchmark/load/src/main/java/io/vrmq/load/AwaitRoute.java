package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * Waits until a NameServer routes a topic to a given broker address, asking GET_ROUTEINFO_BY_TOPIC every 50 ms with
 * the official 5.5.0 remoting client, and prints {@code READY <epoch ms>} at the first successful lookup: the
 * broker's "time to ready" is that minus its start. Started before the broker, so that its own JVM start is not
 * counted; for the same reason it decodes a sample route before it prints {@code WAITING}: the client's first decode
 * of a route builds its JSON deserializers (hundreds of milliseconds cold), which would otherwise be counted as the
 * server's time. Stops with exit code 1 at the timeout or as soon as the watched process is gone.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.AwaitRoute --namesrv 127.0.0.1:9876 --broker-addr 127.0.0.1:10911
 *     [--topic TBW102] [--timeout-seconds 120] [--pid broker-pid]</pre>
 */
public final class AwaitRoute {

    static final String USAGE = """
        usage: AwaitRoute --namesrv host:port --broker-addr host:port [--topic TBW102] [--timeout-seconds 120]
                          [--pid broker-pid]""";
    private static final long POLL_INTERVAL_MS = 50;
    private static final long REQUEST_TIMEOUT_MS = 1_000;

    private AwaitRoute() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        String namesrvAddr = values.get("namesrv");
        String brokerAddr = values.get("broker-addr");
        CommandLine.require(namesrvAddr != null && brokerAddr != null, "--namesrv and --broker-addr are required",
            USAGE);
        String topic = values.getOrDefault("topic", "TBW102");
        long timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(values.getOrDefault("timeout-seconds", "120")));
        long pid = Long.parseLong(values.getOrDefault("pid", "0"));
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        warmRouteDecoding(brokerAddr);
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        boolean ready;
        try {
            ready = await(client, namesrvAddr, topic, brokerAddr, timeoutNanos, pid);
        } finally {
            client.shutdown();
        }
        if (!ready) {
            System.exit(1);
        }
    }

    private static boolean await(NettyRemotingClient client, String namesrvAddr, String topic, String brokerAddr,
                                 long timeoutNanos, long pid) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        System.out.println("WAITING " + System.currentTimeMillis());   // started: a caller may start the servers now
        while (System.nanoTime() < deadline) {
            if (routes(client, namesrvAddr, topic, brokerAddr)) {
                System.out.println("READY " + System.currentTimeMillis());
                return true;
            }
            if (pid > 0 && ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true)) {
                System.out.println("process " + pid + " is gone");
                return false;
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        System.out.println("no route of " + topic + " to " + brokerAddr + " at " + namesrvAddr);
        return false;
    }

    private static boolean routes(NettyRemotingClient client, String namesrvAddr, String topic, String brokerAddr) {
        TopicRouteData route = route(client, namesrvAddr, topic);
        if (route == null) {
            return false;
        }
        for (BrokerData broker : route.getBrokerDatas()) {
            if (broker.getBrokerAddrs().containsValue(brokerAddr)) {
                return true;
            }
        }
        return false;
    }

    /** Encodes and decodes a route like the one awaited, so that the first real one is decoded warm. */
    private static void warmRouteDecoding(String brokerAddr) {
        BrokerData broker = new BrokerData("warm-up-cluster", "warm-up-broker",
            new HashMap<>(Map.of(MixAll.MASTER_ID, brokerAddr)));
        QueueData queues = new QueueData();
        queues.setBrokerName("warm-up-broker");
        queues.setReadQueueNums(8);
        queues.setWriteQueueNums(8);
        queues.setPerm(6);
        TopicRouteData sample = new TopicRouteData();
        sample.setBrokerDatas(List.of(broker));
        sample.setQueueDatas(List.of(queues));
        sample.setFilterServerTable(new HashMap<>());
        TopicRouteData decoded = RemotingSerializable.decode(sample.encode(), TopicRouteData.class);
        if (decoded.getBrokerDatas().isEmpty()) {
            throw new IllegalStateException("the sample route did not decode");
        }
    }

    /** The NameServer's route of the topic (GET_ROUTEINFO_BY_TOPIC), or null if it has none or does not answer. */
    static TopicRouteData route(NettyRemotingClient client, String namesrvAddr, String topic) {
        GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
        header.setTopic(topic);
        try {
            RemotingCommand response = client.invokeSync(namesrvAddr,
                RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header), REQUEST_TIMEOUT_MS);
            if (response.getCode() != ResponseCode.SUCCESS || response.getBody() == null) {
                return null;
            }
            return RemotingSerializable.decode(response.getBody(), TopicRouteData.class);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception notYet) {
            return null;
        }
    }
}
