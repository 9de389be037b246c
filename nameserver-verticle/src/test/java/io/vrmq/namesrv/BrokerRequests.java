package io.vrmq.namesrv;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Requests as an Apache RocketMQ broker, client or admin tool sends them to a NameServer, built with our own
 * command model. Stateless: any thread.
 */
final class BrokerRequests {
    static final RemotingJson JSON = new RemotingJson();
    static final String CLUSTER = "DefaultCluster";

    private BrokerRequests() {
    }

    /** The custom header of REGISTER_BROKER, UNREGISTER_BROKER and QUERY_DATA_VERSION. */
    static Map<String, String> brokerHeader(String clusterName, String brokerName, long brokerId,
                                            String brokerAddr) {
        Map<String, String> header = new HashMap<>();
        header.put("clusterName", clusterName);
        header.put("brokerName", brokerName);
        header.put("brokerId", Long.toString(brokerId));
        header.put("brokerAddr", brokerAddr);
        return header;
    }

    static Map<String, TopicConfig> topics(TopicConfig... configs) {
        Map<String, TopicConfig> table = new LinkedHashMap<>();
        for (TopicConfig config : configs) {
            table.put(config.topicName(), config);
        }
        return table;
    }

    /** A REGISTER_BROKER request with a plain JSON RegisterBrokerBody, as the 5.x broker sends it by default. */
    static RemotingCommand register(String brokerName, long brokerId, String brokerAddr, DataVersion version,
                                    TopicConfig... topics) {
        Map<String, String> header = brokerHeader(CLUSTER, brokerName, brokerId, brokerAddr);
        header.put("haServerAddr", brokerAddr.replaceAll(":\\d+$", ":10912"));
        header.put("compressed", "false");
        header.put("bodyCrc32", "0");
        Buffer body = JSON.encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(topics(topics), version),
            List.of()));
        return RemotingCommand.request(RequestCode.REGISTER_BROKER, header, body);
    }

    static RemotingCommand unregister(String brokerName, long brokerId, String brokerAddr) {
        return RemotingCommand.request(RequestCode.UNREGISTER_BROKER,
            brokerHeader(CLUSTER, brokerName, brokerId, brokerAddr), null);
    }

    static RemotingCommand routeOf(String topic) {
        return RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic), null);
    }

    /**
     * RocketMQ's {@code RegisterBrokerBody.encode(true)}: a zlib stream (Deflater BEST_COMPRESSION) of int32 length +
     * DataVersion JSON; int32 topic count; per topic int32 length + {@code TopicConfig.encode()} text; int32 length +
     * filter-server JSON array; int32 static-topic mapping count.
     */
    static Buffer compressedBody(DataVersion version, TopicConfig... topics) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes, deflater))) {
            writePart(out, JSON.encode(version).getBytes());
            out.writeInt(topics.length);
            for (TopicConfig topic : topics) {
                String line = topic.topicName() + " " + topic.readQueueNums() + " " + topic.writeQueueNums() + " "
                    + topic.perm() + " " + topic.topicFilterType() + " {}";
                writePart(out, line.getBytes(StandardCharsets.UTF_8));
            }
            writePart(out, "[]".getBytes(StandardCharsets.UTF_8));
            out.writeInt(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return Buffer.buffer(bytes.toByteArray());
    }

    /** RocketMQ's {@code UtilAll.crc32}: CRC32 masked to a non-negative int. */
    static long crc32(Buffer body) {
        CRC32 crc = new CRC32();
        crc.update(body.getBytes());
        return crc.getValue() & 0x7FFFFFFFL;
    }

    private static void writePart(DataOutputStream out, byte[] part) throws IOException {
        out.writeInt(part.length);
        out.write(part);
    }
}
