package io.vrmq.broker.auth;

import java.util.Objects;

/**
 * A resource an ACL entry names or a request touches: {@code Topic:orders} (literal), {@code Topic:ord*} (prefix),
 * {@code Topic:*} (every topic) or {@code *} (anything). Requests always carry literal resources.
 *
 * @param type    what kind of resource
 * @param name    the literal name or the prefix; null for the "*" patterns
 * @param pattern how {@code name} matches
 */
public record Resource(ResourceType type, String name, Pattern pattern) {
    public static final Resource ANYTHING = new Resource(ResourceType.ANY, null, Pattern.ANY);
    private static final String ASTERISK = "*";
    private static final String RETRY_PREFIX = "%RETRY%";
    private static final String DLQ_PREFIX = "%DLQ%";

    /** How a resource name matches; the order is the precedence of a match (literal first). */
    public enum Pattern { LITERAL, PREFIXED, ANY }

    public Resource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(pattern, "pattern");
    }

    public static Resource topic(String name) {
        return new Resource(ResourceType.TOPIC, name, Pattern.LITERAL);
    }

    /** A consumer group; a retry topic {@code %RETRY%g} stands for its group {@code g}. */
    public static Resource group(String name) {
        return new Resource(ResourceType.GROUP, isRetryTopic(name) ? withoutRetryPrefix(name) : name,
            Pattern.LITERAL);
    }

    public static Resource cluster(String name) {
        return new Resource(ResourceType.CLUSTER, name, Pattern.LITERAL);
    }

    /** A topic a request names: a retry topic is checked as its group (RocketMQ's rule). */
    public static Resource topicOrRetryGroup(String topic) {
        return isRetryTopic(topic) ? group(topic) : topic(topic);
    }

    public static boolean isRetryTopic(String topic) {
        return topic != null && topic.startsWith(RETRY_PREFIX);
    }

    /**
     * Parses a resource key as mqadmin and the admin API write it ({@code Topic:t}, {@code Group:g*},
     * {@code Topic:*}, {@code *}); null when blank or of an unknown type.
     */
    public static Resource parse(String key) {
        if (key == null || key.isBlank()) {
            return null;
        }
        if (key.equals(ASTERISK)) {
            return ANYTHING;
        }
        int colon = key.indexOf(':');
        String typeName = colon < 0 ? key : key.substring(0, colon);
        ResourceType type = ResourceType.byName(typeName);
        if (type == null) {
            return null;
        }
        String name = colon < 0 ? "" : key.substring(colon + 1);
        if (name.equals(ASTERISK)) {
            return new Resource(type, null, Pattern.ANY);
        }
        if (name.endsWith(ASTERISK)) {
            return new Resource(type, name.substring(0, name.indexOf(ASTERISK)), Pattern.PREFIXED);
        }
        return new Resource(type, name, Pattern.LITERAL);
    }

    /** The key form ({@code Topic:t}, {@code Topic:t*}, {@code Topic:*}, {@code *}). */
    public String key() {
        if (type == ResourceType.ANY) {
            return ASTERISK;
        }
        return switch (pattern) {
            case ANY -> type.displayName() + ":" + ASTERISK;
            case LITERAL -> type.displayName() + ":" + name;
            case PREFIXED -> type.displayName() + ":" + name + ASTERISK;
        };
    }

    /** Whether this (entry) resource covers the literal resource {@code requested}. */
    public boolean covers(Resource requested) {
        if (type == ResourceType.ANY) {
            return true;
        }
        if (type != requested.type) {
            return false;
        }
        return switch (pattern) {
            case ANY -> true;
            case LITERAL -> Objects.equals(name, requested.name);
            case PREFIXED -> requested.name != null && requested.name.startsWith(name);
        };
    }

    private static String withoutRetryPrefix(String topic) {
        String name = topic.substring(RETRY_PREFIX.length());
        return name.startsWith(DLQ_PREFIX) ? name.substring(DLQ_PREFIX.length()) : name;
    }

    @Override
    public String toString() {
        return key();
    }
}
