package io.vrmq.namesrv.processor;

import com.fasterxml.jackson.core.type.TypeReference;
import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommandException;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.InflaterInputStream;

/**
 * Reads a REGISTER_BROKER body in either of the forms RocketMQ brokers send: plain JSON, or the compressed form
 * (a zlib stream, used with {@code compressedRegister=true}). A 5.x broker compresses but still says
 * {@code compressed=false}, so the form is told from the first byte: JSON starts with '{', zlib with 0x78.
 *
 * <p>Compressed layout, inside the zlib stream (ints big-endian):
 * <pre>
 *  4+n   DataVersion JSON
 *  4     topic count, then per topic: 4+n  "name read write perm filterType [attributesJSON]" (space-separated)
 *  4+n   filter server list JSON array
 *  4     static-topic mapping count (brokers of 5.0 and later), then per mapping 4+n JSON (kept, not read)
 * </pre>
 * Stateless: any thread.
 */
final class RegisterBodyDecoder {
    private static final int ZLIB_FIRST_BYTE = 0x78;
    private static final int MAX_PART_BYTES = 64 * 1024 * 1024;

    private final RemotingJson json;

    RegisterBodyDecoder(RemotingJson json) {
        this.json = json;
    }

    RegisterBrokerBody decode(Buffer body, boolean compressedHeader) {
        if (body == null) {
            return new RegisterBrokerBody(null, List.of());
        }
        boolean isZlib = (body.getByte(0) & 0xFF) == ZLIB_FIRST_BYTE;
        if (!isZlib && !compressedHeader) {
            return json.decode(body, RegisterBrokerBody.class);
        }
        try {
            return decodeCompressed(body.getBytes());
        } catch (IOException | RuntimeException e) {
            throw new RemotingCommandException("compressed register body does not decode: " + e);
        }
    }

    private RegisterBrokerBody decodeCompressed(byte[] bytes) throws IOException {
        try (DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(bytes)))) {
            DataVersion version = json.decode(readPart(in), DataVersion.class);
            int topicCount = in.readInt();
            Map<String, TopicConfig> topics = new HashMap<>();
            for (int i = 0; i < topicCount; i++) {
                TopicConfig topic = parseTopicLine(new String(readPart(in), StandardCharsets.UTF_8));
                topics.put(topic.topicName(), topic);
            }
            List<String> filterServers = json.mapper().readValue(readPart(in), new TypeReference<List<String>>() {
            });
            return new RegisterBrokerBody(new TopicConfigSerializeWrapper(topics, version), filterServers);
        }
    }

    private static TopicConfig parseTopicLine(String line) throws IOException {
        String[] parts = line.split(" ", 6);
        if (parts.length < 5) {
            throw new IOException("topic config line has " + parts.length + " fields: " + line);
        }
        return new TopicConfig(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
            Integer.parseInt(parts[3]), parts[4], 0, false, Map.of());
    }

    private static byte[] readPart(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_PART_BYTES) {
            throw new IOException("part length " + length + " out of range");
        }
        byte[] part = new byte[length];
        in.readFully(part);
        return part;
    }
}
