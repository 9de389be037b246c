package io.vrmq.broker.http;

import io.vrmq.broker.schedule.StoredMessage;
import io.vrmq.remoting.message.MessageConst;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stored message as the admin API shows it: its place in the store, times, hosts, properties (with keys and tags
 * pulled out), and the body as text when it is valid UTF-8, else base64 ({@code bodyEncoding} says which). A body the
 * producer compressed (sys flag bit 0) is shown as stored, in base64, with {@code compressed: true}. Stateless.
 */
final class MessageView {
    static final String UTF_8 = "utf-8";
    static final String BASE64 = "base64";
    /** RocketMQ's MessageSysFlag.COMPRESSED_FLAG. */
    private static final int COMPRESSED_FLAG = 0x1;
    /** RocketMQ's MessageConst.KEY_SEPARATOR between several KEYS. */
    private static final String KEY_SEPARATOR = " ";

    private MessageView() {
    }

    static Map<String, Object> of(StoredMessage message) {
        Map<String, String> properties = new TreeMap<>(message.propertyMap());
        boolean isCompressed = (message.sysFlag() & COMPRESSED_FLAG) != 0;
        String text = isCompressed ? null : utf8(message.body());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("msgId", message.offsetMsgId());
        view.put("uniqKey", properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
        view.put("topic", message.topic());
        view.put("queueId", message.queueId());
        view.put("queueOffset", message.queueOffset());
        view.put("commitLogOffset", message.commitLogOffset());
        view.put("storeTimestamp", message.storeTimestamp());
        view.put("bornTimestamp", message.bornTimestamp());
        view.put("bornHost", message.bornHost().getAddress().getHostAddress() + ":" + message.bornHost().getPort());
        view.put("reconsumeTimes", message.reconsumeTimes());
        view.put("flag", message.flag());
        view.put("sysFlag", message.sysFlag());
        view.put("tags", properties.get(MessageConst.TAGS));
        view.put("keys", keys(properties.get(MessageConst.KEYS)));
        view.put("properties", properties);
        view.put("bodyBytes", message.body().length);
        view.put("compressed", isCompressed);
        view.put("bodyEncoding", text != null ? UTF_8 : BASE64);
        view.put("body", text != null ? text : Base64.getEncoder().encodeToString(message.body()));
        return view;
    }

    private static List<String> keys(String keys) {
        return keys == null ? List.of()
            : Arrays.stream(keys.split(KEY_SEPARATOR)).filter(key -> !key.isEmpty()).toList();
    }

    /** The body as text, or null when it is not valid UTF-8. */
    static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
