package io.vrmq.remoting.protocol;

/**
 * A request that decoded as a frame but whose content is wrong (a missing or ill-typed header field, a body that
 * does not parse). It gets a reply with {@link #responseCode()} and the message as remark; the connection stays.
 */
public class RemotingCommandException extends RuntimeException {
    private final int responseCode;

    public RemotingCommandException(int responseCode, String message) {
        super(message);
        this.responseCode = responseCode;
    }

    public RemotingCommandException(String message) {
        this(ResponseCode.SYSTEM_ERROR, message);
    }

    public int responseCode() {
        return responseCode;
    }
}
