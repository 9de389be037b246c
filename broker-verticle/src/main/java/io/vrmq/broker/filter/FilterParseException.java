package io.vrmq.broker.filter;

/** A filter expression that does not compile: what RocketMQ answers with SUBSCRIPTION_PARSE_FAILED (23). */
public final class FilterParseException extends RuntimeException {
    public FilterParseException(String message) {
        super(message);
    }
}
