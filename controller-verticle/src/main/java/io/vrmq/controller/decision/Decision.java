package io.vrmq.controller.decision;

import io.vrmq.controller.state.ControllerEvent;
import io.vrmq.remoting.protocol.ResponseCode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The answer to one controller request, computed from the current state: response code, remark, header fields, body
 * (a value the caller writes as JSON) and, for a write, the event to replicate before answering. Immutable.
 */
public record Decision(int code, String remark, Map<String, String> header, Object body, ControllerEvent event) {
    public Decision {
        header = header == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(header));
    }

    public static Decision success(Map<String, String> header, Object body, ControllerEvent event) {
        return new Decision(ResponseCode.SUCCESS, null, header, body, event);
    }

    public static Decision refused(int code, String remark, Map<String, String> header) {
        return new Decision(code, remark, header, null, null);
    }

    public boolean isSuccess() {
        return code == ResponseCode.SUCCESS;
    }

    public Decision withBody(Object newBody) {
        return new Decision(code, remark, header, newBody, event);
    }

    public Decision withEvent(ControllerEvent newEvent) {
        return new Decision(code, remark, header, body, newEvent);
    }

    /** Header fields in order, a null value left out (RocketMQ writes no extField for a null header field). */
    public static final class Header {
        private final Map<String, String> fields = new LinkedHashMap<>();

        public static Header of() {
            return new Header();
        }

        public Header put(String name, Object value) {
            if (value != null) {
                fields.put(name, String.valueOf(value));
            }
            return this;
        }

        public Map<String, String> fields() {
            return fields;
        }
    }
}
