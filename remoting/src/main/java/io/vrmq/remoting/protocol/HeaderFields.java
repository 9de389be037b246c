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
        long plain = plainDecimal(name);
        if (plain != JsonHeaderFieldTable.NOT_PLAIN && plain == (int) plain) {
            return (int) plain;
        }
        return parseInt(name, requiredString(name));
    }

    public int optionalInt(String name, int fallback) {
        long plain = plainDecimal(name);
        if (plain != JsonHeaderFieldTable.NOT_PLAIN && plain == (int) plain) {
            return (int) plain;
        }
        String value = fields.get(name);
        return value == null || value.isEmpty() ? fallback : parseInt(name, value);
    }

    public long requiredLong(String name) {
        long plain = plainDecimal(name);
        return plain != JsonHeaderFieldTable.NOT_PLAIN ? plain : parseLong(name, requiredString(name));
    }

    public long optionalLong(String name, long fallback) {
        long plain = plainDecimal(name);
        if (plain != JsonHeaderFieldTable.NOT_PLAIN) {
            return plain;
        }
        String value = fields.get(name);
        return value == null || value.isEmpty() ? fallback : parseLong(name, value);
    }

    public boolean optionalBoolean(String name, boolean fallback) {
        if (fields instanceof JsonHeaderFieldTable table) {
            int index = table.indexOf(name);
            if (index >= 0 && table.isPlainText(index, "false")) {
                return false;
            }
            if (index >= 0 && table.isPlainText(index, "true")) {
                return true;
            }
        }
        String value = fields.get(name);
        return value == null || value.isEmpty() ? fallback : Boolean.parseBoolean(value.trim());
    }

    /**
     * A number read from the received bytes without a string, when the header was read in place and the value is a
     * plain decimal; otherwise {@link JsonHeaderFieldTable#NOT_PLAIN} and the text path decides (same answers).
     */
    private long plainDecimal(String name) {
        if (fields instanceof JsonHeaderFieldTable table) {
            int index = table.indexOf(name);
            return index < 0 ? JsonHeaderFieldTable.NOT_PLAIN : table.plainDecimalAt(index);
        }
        return JsonHeaderFieldTable.NOT_PLAIN;
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
