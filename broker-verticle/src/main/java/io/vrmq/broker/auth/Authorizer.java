package io.vrmq.broker.auth;

import java.util.List;

/**
 * Authorization of one request (Apache's UserAuthorizationHandler, then AclAuthorizationHandler, for each resource
 * the request needs): a Super user passes, a Normal user needs a deciding Allow entry for every resource. Refusals
 * carry Apache's remarks. Reads only thread-safe tables: any thread may call it.
 */
public final class Authorizer {
    static final String FAILED = "Authorization failed. Please verify your access rights and try again.";

    private final AuthMetadata metadata;

    public Authorizer(AuthMetadata metadata) {
        this.metadata = metadata;
    }

    /**
     * @param username the request's AccessKey, or null when it had none
     * @param sourceIp the peer's address, without port
     * @throws AuthException when the request may not proceed
     */
    public void authorize(String username, List<AccessRequest> requests, String sourceIp) {
        if (requests.isEmpty()) {
            return;
        }
        if (username == null) {
            throw new AuthException(FAILED);   // Apache fails on the missing subject the same way
        }
        User user = metadata.user(username);
        if (user == null) {
            throw new AuthException("User:" + username + " not found.");
        }
        if (user.isDisabled()) {
            throw new AuthException("User:" + username + " is disabled.");
        }
        if (user.isSuper()) {
            return;
        }
        Acl acl = metadata.acl(username);
        for (AccessRequest request : requests) {
            PolicyEntry deciding = acl == null ? null : AclEvaluator.decidingEntry(acl, request, sourceIp);
            if (deciding == null) {
                throw refusal(username, request, sourceIp, "no matched policies.");
            }
            if (deciding.decision() != Decision.ALLOW) {
                throw refusal(username, request, sourceIp, "the decision is deny.");
            }
        }
    }

    private static AuthException refusal(String username, AccessRequest request, String sourceIp, String detail) {
        return new AuthException(Acl.USER_SUBJECT_PREFIX + username + " has no permission to access "
            + request.resource().key() + " from " + sourceIp + ", " + detail);
    }
}
