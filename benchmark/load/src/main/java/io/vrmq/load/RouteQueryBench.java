package io.vrmq.load;

import java.time.Duration;

import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;

/**
 * Load generator for a NameServer's hottest request: GET_ROUTEINFO_BY_TOPIC (105), sent by the official RocketMQ
 * 5.5.0 remoting client, so ours and Apache's NameServer are measured with the same client. Optionally registers a
 * broker first (--register) so both hold the same route; then warms up, measures, prints a progress line a second and
 * a final JSON line (prefixed "RESULT ") with requests, errors, req/s and p50/p99/p999 latency in µs.
 *
 * <pre>java -jar vrmq-load.jar --namesrv 127.0.0.1:9876 --register bench-broker --concurrency 64</pre>
 */
public final class RouteQueryBench {

    private static final long ROUTE_CHECK_TIMEOUT_MS = 5_000;

    private RouteQueryBench() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        // Requests carry the sender's version from this property, as the official clients set it at start.
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            if (options.registerBroker() != null) {
                BrokerRegistration.register(client, options.namesrvAddr(), options.registerBroker(), options.topic());
            }
            requireRoute(client, options);
            if (options.warmupSeconds() > 0) {
                new RouteQueryLoad(client, options).run("warmup", Duration.ofSeconds(options.warmupSeconds()), 0);
            }
            LoadResult result = new RouteQueryLoad(client, options)
                .run("measure", Duration.ofSeconds(options.durationSeconds()), options.requestCount());
            System.out.println("RESULT " + result.toJson());
        } finally {
            client.shutdown();
        }
    }

    /** One synchronous request first, so a missing route fails the run loudly instead of measuring errors. */
    private static void requireRoute(NettyRemotingClient client, BenchOptions options) throws Exception {
        GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
        header.setTopic(options.topic());
        RemotingCommand response = client.invokeSync(options.namesrvAddr(),
            RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header), ROUTE_CHECK_TIMEOUT_MS);
        if (response.getCode() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("no route for " + options.topic() + " at " + options.namesrvAddr()
                + ": code " + response.getCode() + ", " + response.getRemark() + " (use --register to create one)");
        }
        System.out.println("route of " + options.topic() + " at " + options.namesrvAddr() + ": "
            + (response.getBody() == null ? 0 : response.getBody().length) + " bytes");
    }
}
