package io.vrmq.remoting.protocol;

import java.util.Map;

/**
 * Typed reads of a command's custom header. RocketMQ sends every value as a string; a required field that is
 * missing or does not parse is the sender's error, answered with SYSTEM_ERROR and a remark naming the field
 * (what the official server does when it cannot decode a header).
 */
public final class HeaderFields {
    private final int code;
    private final Map<String, String> fields;

    HeaderFields(int code, Map<String, String> fields) {
        this.code = code;
        this.fields = fields;
    }

    public String requiredString(String name) {
        String value = fields.get(name);
        if (value == null) {
            throw missing(name);
        }
        return value;
    }

    public String optionalString(String name) {
        return fields.get(name);
    }

    public int requiredInt(String name) {
        return parseInt(name, requiredString(name));
    }

    public int optionalInt(String name, int fallback) {
        String value = fields.get(name);
        return value == null || value.isEmpty() ? fallback : parseInt(name, value);
    }

    public long requiredLong(String name) {
        return parseLong(name, requiredString(name));
    }

    public long optionalLong(String name, long fallback) {
        String value = fields.get(name);
        return value == null || value.isEmpty() ? fallback : parseLong(name, value);
    }

    public boolean optionalBoolean(String name, boolean fallback) {
        String value = fields.get(name);
        return value == null || value.isEmpty() ? fallback : Boolean.parseBoolean(value.trim());
    }

    private int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw illegal(name, value);
        }
    }

    private long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw illegal(name, value);
        }
    }

    private RemotingCommandException missing(String name) {
        return new RemotingCommandException("request code " + code + ": the custom header field " + name
            + " is null");
    }

    private RemotingCommandException illegal(String name, String value) {
        return new RemotingCommandException("request code " + code + ": the custom header field " + name
            + " is not a number: " + value);
    }
}
