package io.vrmq.client;

import io.vrmq.remoting.message.MessageConst;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message to send: topic, body, user flag and properties (tags, keys, delay level and user properties all live in
 * the properties, as on the wire). Immutable: every {@code with...} returns a copy, so one message may be sent from
 * several threads. The body array is not copied: do not change it after handing it over.
 */
public final class Message {
    private final String topic;
    private final byte[] body;
    private final int flag;
    private final Map<String, String> properties;

    private Message(String topic, byte[] body, int flag, Map<String, String> properties) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.body = Objects.requireNonNull(body, "body");
        this.flag = flag;
        this.properties = Collections.unmodifiableMap(properties);
    }

    public static Message of(String topic, byte[] body) {
        return new Message(topic, body, 0, new LinkedHashMap<>());
    }

    public static Message of(String topic, String tags, byte[] body) {
        return of(topic, body).withTags(tags);
    }

    public Message withTags(String tags) {
        return withProperty(MessageConst.TAGS, tags);
    }

    /** Business keys, indexed by the broker for queries; stored space-separated as RocketMQ does. */
    public Message withKeys(String... keys) {
        return withProperty(MessageConst.KEYS, String.join(" ", keys));
    }

    /** Delay level 1..18 of the broker's messageDelayLevel table; 0 clears it. */
    public Message withDelayLevel(int level) {
        if (level < 0) {
            throw new IllegalArgumentException("delay level must be >= 0: " + level);
        }
        return level == 0 ? withoutProperty(MessageConst.DELAY_TIME_LEVEL)
            : withProperty(MessageConst.DELAY_TIME_LEVEL, Integer.toString(level));
    }

    /** false: the broker answers before the message is flushed (WAIT=false). */
    public Message withWaitStoreMsgOk(boolean isWait) {
        return withProperty(MessageConst.WAIT_STORE_MSG_OK, Boolean.toString(isWait));
    }

    public Message withFlag(int newFlag) {
        return new Message(topic, body, newFlag, new LinkedHashMap<>(properties));
    }

    public Message withTopic(String newTopic) {
        return new Message(newTopic, body, flag, new LinkedHashMap<>(properties));
    }

    public Message withBody(byte[] newBody) {
        return new Message(topic, newBody, flag, new LinkedHashMap<>(properties));
    }

    /** A user or system property; names must not contain the separators \u0001 and \u0002. */
    public Message withProperty(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Map<String, String> copy = new LinkedHashMap<>(properties);
        copy.put(name, value);
        return new Message(topic, body, flag, copy);
    }

    public Message withoutProperty(String name) {
        Map<String, String> copy = new LinkedHashMap<>(properties);
        copy.remove(name);
        return new Message(topic, body, flag, copy);
    }

    public String topic() {
        return topic;
    }

    public byte[] body() {
        return body;
    }

    public int flag() {
        return flag;
    }

    public Map<String, String> properties() {
        return properties;
    }

    public String property(String name) {
        return properties.get(name);
    }

    public String tags() {
        return properties.get(MessageConst.TAGS);
    }

    public String keys() {
        return properties.get(MessageConst.KEYS);
    }

    public int delayLevel() {
        String level = properties.get(MessageConst.DELAY_TIME_LEVEL);
        return level == null ? 0 : Integer.parseInt(level);
    }

    @Override
    public String toString() {
        return "Message[topic=" + topic + ", flag=" + flag + ", properties=" + properties + ", bodyBytes="
            + body.length + "]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Message that && topic.equals(that.topic) && flag == that.flag
            && Arrays.equals(body, that.body) && properties.equals(that.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, flag, properties, Arrays.hashCode(body));
    }
}
