package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/**
 * Creates topics and subscription groups through a NameServer with the official 5.5.0 remoting client, for load
 * tools that cannot administer a cluster themselves (the RocketMQ 5 gRPC SDK has no admin API, and Apache's proxy
 * refuses consumer groups that do not exist): each topic with --queues queues on every master of the TBW102 route
 * (as {@link MessageLoadBench} does, waiting until the NameServer routes it), then each group
 * (UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, the broker's defaults otherwise) on every master that the first topic's
 * route names. One JVM for all of them, so a benchmark pays one client start per server. Main thread only.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.CreateResources --namesrv 127.0.0.1:9876 --topics A,B [--queues 8]
 *     [--groups G1,G2]</pre>
 */
public final class CreateResources {

    static final String USAGE = """
        usage: CreateResources --namesrv host:port --topics t1,t2 [--queues 8] [--groups g1,g2]""";
    private static final long REQUEST_TIMEOUT_MS = 5_000;

    private CreateResources() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        String namesrvAddr = values.get("namesrv");
        List<String> topics = list(values.get("topics"));
        CommandLine.require(namesrvAddr != null && !topics.isEmpty(), "--namesrv and --topics are required", USAGE);
        int queues = Integer.parseInt(values.getOrDefault("queues", "8"));
        List<String> groups = list(values.get("groups"));
        DefaultMQProducer producer = new DefaultMQProducer("bench_admin_" + ProcessHandle.current().pid());
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName("bench-admin-" + ProcessHandle.current().pid());
        producer.start();
        try {
            for (String topic : topics) {
                MessageLoadBench.createTopic(producer, topic, queues);
            }
            MQClientAPIImpl api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            TopicRouteData route = api.getTopicRouteInfoFromNameServer(topics.get(0), REQUEST_TIMEOUT_MS);
            for (String group : groups) {
                SubscriptionGroupConfig config = new SubscriptionGroupConfig();
                config.setGroupName(group);
                for (BrokerData broker : route.getBrokerDatas()) {
                    String master = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
                    if (master != null) {
                        api.createSubscriptionGroup(master, config, REQUEST_TIMEOUT_MS);
                        System.out.println("group " + group + " created on " + master);
                    }
                }
            }
        } finally {
            producer.shutdown();
        }
    }

    private static List<String> list(String commaSeparated) {
        return commaSeparated == null ? List.of()
            : Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
    }
}
