package io.vrmq.broker.auth;

import java.util.List;

/** One thing a request needs: a literal resource and the actions of which any one suffices. */
public record AccessRequest(Resource resource, List<Action> actions) {
    public AccessRequest {
        actions = List.copyOf(actions);
    }

    public static AccessRequest of(Resource resource, Action... actions) {
        return new AccessRequest(resource, List.of(actions));
    }
}
