package io.vrmq.broker.auth;

import java.util.Collection;
import java.util.List;

/**
 * One rule of a policy: on {@code resource}, {@code actions} are allowed or denied, from {@code sourceIps} (IPs or
 * CIDR ranges; empty means from anywhere). Immutable.
 */
public record PolicyEntry(Resource resource, List<Action> actions, List<String> sourceIps, Decision decision) {
    public PolicyEntry {
        actions = List.copyOf(actions);
        sourceIps = sourceIps == null ? List.of() : List.copyOf(sourceIps);
    }

    /** Any requested action is one of ours, or we have All; a request for Any matches every non-empty entry. */
    public boolean matchesActions(Collection<Action> requested) {
        if (actions.isEmpty()) {
            return false;
        }
        if (requested.contains(Action.ANY)) {
            return true;
        }
        return requested.stream().anyMatch(action -> actions.contains(action) || actions.contains(Action.ALL));
    }

    public boolean matchesSourceIp(String ip) {
        if (sourceIps.isEmpty()) {
            return true;
        }
        return ip != null && sourceIps.stream().anyMatch(range -> SourceIps.contains(range, ip));
    }

    /** The entry with new actions, addresses and decision for the same resource (an ACL update). */
    public PolicyEntry updatedBy(PolicyEntry other) {
        return new PolicyEntry(resource, other.actions, other.sourceIps, other.decision);
    }
}
