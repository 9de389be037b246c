package io.vrmq.broker.admin;

import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code attributes} header of UPDATE_AND_CREATE_TOPIC (17): RocketMQ's modification list
 * {@code +name=value,+other=value,-removed}. {@code +} sets a value, {@code -} removes one; the topic keeps the rest
 * of its current attributes. Stateless.
 */
final class TopicAttributes {
    private TopicAttributes() {
    }

    static Map<String, String> apply(Map<String, String> current, String modifications) {
        Map<String, String> result = new TreeMap<>(current);
        if (modifications == null || modifications.isBlank()) {
            return result;
        }
        for (String item : modifications.split(",")) {
            String entry = item.trim();
            if (entry.startsWith("+") && entry.indexOf('=') > 1) {
                int equals = entry.indexOf('=');
                result.put(entry.substring(1, equals), entry.substring(equals + 1));
            } else if (entry.startsWith("-") && entry.length() > 1 && entry.indexOf('=') < 0) {
                result.remove(entry.substring(1));
            } else if (!entry.isEmpty()) {
                throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "attribute format is wrong: "
                    + entry + " (expected +name=value or -name)");
            }
        }
        return result;
    }
}
