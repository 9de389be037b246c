package io.vrmq.broker.http;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads and checks admin request input (JSON bodies, query parameters), throwing {@link HttpError} 400 with a
 * message naming the field and the value. Stateless.
 */
final class RequestValues {
    private RequestValues() {
    }

    /** The request body as a JSON object; 400 when it is missing or not an object. */
    static JsonObject body(RoutingContext context) {
        if (context.body() == null || context.body().length() == 0) {
            throw HttpError.badRequest("missing JSON body");
        }
        try {
            JsonObject body = context.body().asJsonObject();
            if (body == null) {
                throw HttpError.badRequest("missing JSON body");
            }
            return body;
        } catch (DecodeException | ClassCastException e) {
            throw HttpError.badRequest("body is not a JSON object: " + e.getMessage());
        }
    }

    static String requiredString(JsonObject body, String field) {
        Object value = body.getValue(field);
        if (!(value instanceof String text) || text.isBlank()) {
            throw HttpError.badRequest("field '" + field + "' must be a non-empty string, got " + value);
        }
        return text;
    }

    /** A string field that may be absent (null); 400 when present but not a string. */
    static String optionalString(JsonObject body, String field) {
        Object value = body.getValue(field);
        if (value != null && !(value instanceof String)) {
            throw HttpError.badRequest("field '" + field + "' must be a string, got " + value);
        }
        return (String) value;
    }

    static int intField(JsonObject body, String field, int fallback, int min, int max) {
        Object value = body.getValue(field);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number number) || number.doubleValue() != number.longValue()
            || number.longValue() < min || number.longValue() > max) {
            throw HttpError.badRequest("field '" + field + "' must be an integer in [" + min + ", " + max
                + "], got " + value);
        }
        return number.intValue();
    }

    static long requiredLong(JsonObject body, String field) {
        Object value = body.getValue(field);
        if (!(value instanceof Number number) || number.doubleValue() != number.longValue()) {
            throw HttpError.badRequest("field '" + field + "' must be an integer, got " + value);
        }
        return number.longValue();
    }

    static boolean booleanField(JsonObject body, String field, boolean fallback) {
        Object value = body.getValue(field);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Boolean flag)) {
            throw HttpError.badRequest("field '" + field + "' must be true or false, got " + value);
        }
        return flag;
    }

    /** A query parameter; null when absent or empty. */
    static String query(RoutingContext context, String name) {
        String value = context.queryParams().get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    static long queryLong(RoutingContext context, String name, long fallback) {
        String value = query(context, name);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw HttpError.badRequest("query parameter '" + name + "' must be an integer, got " + value);
        }
    }
}
