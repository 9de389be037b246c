package io.vrmq.broker.auth;

import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.protocol.RemotingCommand;

/**
 * Authentication of one remoting request (Apache's DefaultAuthenticationHandler): the AccessKey names an enabled
 * user, and the Signature is the HMAC of the received ext-field values and body under that user's password. Reads
 * only thread-safe tables: any thread may call it.
 */
public final class Authenticator {
    private final AuthMetadata metadata;

    public Authenticator(AuthMetadata metadata) {
        this.metadata = metadata;
    }

    /** @throws AuthException with Apache's remark when the request is not signed by a known, enabled user */
    public void authenticate(RemotingCommand request) {
        String username = request.ext(RequestSignature.ACCESS_KEY);
        if (username == null || username.isEmpty()) {
            throw new AuthException("username cannot be null.");
        }
        User user = metadata.user(username);
        if (user == null) {
            throw new AuthException("User:" + username + " is not found.");
        }
        if (user.isDisabled()) {
            throw new AuthException("User:" + username + " is disabled.");
        }
        String password = user.password();
        if (password == null || password.isEmpty()
            || !RequestSignature.matches(RequestSignature.expected(request, password),
                request.ext(RequestSignature.SIGNATURE))) {
            throw new AuthException("check signature failed.");
        }
    }
}
