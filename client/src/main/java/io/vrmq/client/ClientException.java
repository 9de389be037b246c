package io.vrmq.client;

/**
 * A request the client could not complete: a broker or NameServer refusal (with its response code and remark), no
 * route, or a client-side check. {@link #NO_RESPONSE_CODE} when no server answered at all.
 */
public final class ClientException extends RuntimeException {
    public static final int NO_RESPONSE_CODE = -1;
    private final int responseCode;

    public ClientException(int responseCode, String message) {
        super(message);
        this.responseCode = responseCode;
    }

    public ClientException(String message, Throwable cause) {
        super(message, cause);
        this.responseCode = NO_RESPONSE_CODE;
    }

    public ClientException(String message) {
        this(NO_RESPONSE_CODE, message);
    }

    public int responseCode() {
        return responseCode;
    }
}
