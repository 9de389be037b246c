package io.vrmq.remoting.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * RocketMQ's JSON header ("JSON" serialize type), written as the official encoder does: keys in alphabetical order,
 * null fields left out, every extFields value a string. Reading is lenient as the official decoder is: fields in any
 * order, unknown fields ignored, numbers and booleans in extFields taken as their text.
 * Stateless apart from the thread-safe {@link JsonFactory}: any thread.
 */
final class JsonHeaderCodec {
    private static final JsonFactory JSON = JsonFactory.builder().build();
    /** Room for a send header's 13-15 fields without a rehash (the map's default of 16 rehashes at 12). */
    private static final int EXT_FIELDS_CAPACITY = 32;

    private JsonHeaderCodec() {
    }

    /** Written by hand, not with a generator: {@link JsonHeaderWriter}. */
    static void encode(RemotingCommand command, Buffer out) {
        JsonHeaderWriter.write(command, out);
    }

    /**
     * The header as the official clients write it is read in place ({@link JsonHeaderScanner}); anything else, and
     * every malformed header, by the general decoder below.
     */
    static RemotingCommand decode(Buffer frame, int start, int length, Buffer body) {
        RemotingCommand command = JsonHeaderScanner.decodeOrNull(frame, start, length, body);
        return command != null ? command : decodeGeneral(frame, start, length, body);
    }

    /** Any JSON the official decoder accepts, with Jackson. */
    static RemotingCommand decodeGeneral(Buffer frame, int start, int length, Buffer body) {
        byte[] header = frame.getBytes(start, start + length);
        int code = 0;
        int version = 0;
        int opaque = 0;
        int flag = 0;
        String remark = null;
        LanguageCode language = LanguageCode.JAVA;
        Map<String, String> extFields = null;
        try (JsonParser json = JSON.createParser(header)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedFrameException("JSON header is not an object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if (value != null && value.isStructStart() && isScalarField(name)) {
                    // Reading on would take the object's own fields for the header's (a wrong code or opaque).
                    throw new MalformedFrameException("JSON header: " + name + " is not a scalar");
                }
                switch (name) {
                    case "code" -> code = json.getValueAsInt();
                    case "version" -> version = json.getValueAsInt();
                    case "opaque" -> opaque = json.getValueAsInt();
                    case "flag" -> flag = json.getValueAsInt();
                    case "remark" -> remark = value == JsonToken.VALUE_NULL ? null : json.getValueAsString();
                    case "language" -> language = readLanguage(json, value);
                    case "extFields" -> extFields = readExtFields(json, value);
                    default -> json.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new MalformedFrameException("JSON header does not parse: " + e.getMessage(), e);
        }
        return new RemotingCommand(code, language, version, opaque, flag, remark, extFields, body,
            SerializeType.JSON);
    }

    private static boolean isScalarField(String name) {
        return switch (name) {
            case "code", "version", "opaque", "flag", "remark", "language" -> true;
            default -> false;
        };
    }

    private static LanguageCode readLanguage(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_INT) {
            return LanguageCode.ofCode(json.getIntValue());
        }
        return LanguageCode.ofName(json.getValueAsString());
    }

    private static Map<String, String> readExtFields(JsonParser json, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        if (value != JsonToken.START_OBJECT) {
            throw new MalformedFrameException("JSON header: extFields is not an object");
        }
        Map<String, String> fields = new HashMap<>(EXT_FIELDS_CAPACITY);
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String key = json.currentName();
            JsonToken token = json.nextToken();
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                throw new MalformedFrameException("JSON header: extFields." + key + " is not a scalar");
            }
            if (token != JsonToken.VALUE_NULL) {
                fields.put(key, json.getValueAsString());
            }
        }
        return fields;
    }
}
