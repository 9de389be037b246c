package io.vrmq.namesrv.processor;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.body.BrokerData;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.QueueData;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.body.TopicRouteData;
import io.vrmq.remoting.json.RemotingJson;

import java.util.List;
import java.util.Map;

/**
 * Builds, ahead of the first requests, what Jackson builds on first use for the two bodies that stand between a
 * starting broker and its first routed send: the REGISTER_BROKER body this NameServer reads and the route it writes
 * back to GET_ROUTEINFO_BY_TOPIC. Jackson introspects each type once per mapper (reflection, class loading: tens of
 * milliseconds cold), and without this that happens while the first broker waits for its registration's answer.
 * The NameServer's start runs it on a worker beside its own start, so it costs no time there. Uses the NameServer's
 * own {@link RemotingJson} (the built serializers are that mapper's); the samples go nowhere. Blocking CPU work:
 * a worker thread; any thread, as often as wanted.
 */
public final class JsonWarmUp {
    private static final String SAMPLE_BROKER = "warm-up-broker";

    private JsonWarmUp() {
    }

    /** Writes and reads a sample registration body and writes a sample route. */
    public static void run(RemotingJson json) {
        TopicConfig topic = TopicConfig.of("warm-up-topic", 8, 6);
        Buffer registration = json.encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(
            Map.of(topic.topicName(), topic), DataVersion.initial(0)), List.of()));
        new RegisterBodyDecoder(json).decode(registration, false);
        json.encode(new TopicRouteData(null, List.of(QueueData.of(SAMPLE_BROKER, topic)),
            List.of(new BrokerData("warm-up-cluster", SAMPLE_BROKER, Map.of(BrokerData.MASTER_ID, "127.0.0.1:1"),
                false, null)), Map.of()));
    }
}
