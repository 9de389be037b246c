package io.vrmq.broker.auth;

/**
 * A refused authentication or authorization, or a user/ACL change the rules forbid. The message is the remark the
 * client sees, in Apache RocketMQ's words; it never contains a secret.
 */
public final class AuthException extends RuntimeException {
    public AuthException(String message) {
        super(message, null, false, false);
    }
}
