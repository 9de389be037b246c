package io.vrmq.broker.http;

/**
 * An admin request refused with a known HTTP status and a message for the caller (bad input, unknown resource).
 * Thrown by route handlers and request parsing; {@link HttpReplies#failure} writes it as the error JSON.
 */
public final class HttpError extends RuntimeException {
    public static final int BAD_REQUEST = 400;
    public static final int UNAUTHORIZED = 401;
    public static final int FORBIDDEN = 403;
    public static final int NOT_FOUND = 404;
    public static final int INTERNAL = 500;

    private final int status;

    public HttpError(int status, String message) {
        super(message);
        this.status = status;
    }

    public static HttpError badRequest(String message) {
        return new HttpError(BAD_REQUEST, message);
    }

    public static HttpError notFound(String message) {
        return new HttpError(NOT_FOUND, message);
    }

    public int status() {
        return status;
    }
}
