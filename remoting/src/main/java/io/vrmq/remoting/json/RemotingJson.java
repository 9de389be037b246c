package io.vrmq.remoting.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.protocol.RemotingCommandException;

import java.io.IOException;

/**
 * Request and response bodies in RocketMQ's JSON forms. The official code writes them with fastjson: keys sorted,
 * nulls left out, and maps with number keys sometimes written with bare keys ({@code {0:"127.0.0.1:10911"}}), so
 * reading accepts unquoted names; writing always quotes them, which every official client version reads.
 * The mapper is thread-safe once built: one instance per process is passed around.
 */
public final class RemotingJson {
    private final ObjectMapper mapper;

    public RemotingJson() {
        this.mapper = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonParser.Feature.ALLOW_COMMENTS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    public Buffer encode(Object body) {
        try {
            return Buffer.buffer(mapper.writeValueAsBytes(body));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + body.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** @throws RemotingCommandException (SYSTEM_ERROR) naming the type when the body does not parse */
    public <T> T decode(Buffer body, Class<T> type) {
        if (body == null) {
            throw new RemotingCommandException("missing request body, expected " + type.getSimpleName());
        }
        return decode(body.getBytes(), type);
    }

    public <T> T decode(byte[] body, Class<T> type) {
        try {
            return mapper.readValue(body, type);
        } catch (IOException e) {
            throw new RemotingCommandException("body is not a valid " + type.getSimpleName() + ": "
                + e.getMessage());
        }
    }
}
