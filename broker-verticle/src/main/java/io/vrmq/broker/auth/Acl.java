package io.vrmq.broker.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * The policies of one user (subject {@code User:<username>}), at most one per policy type. Immutable; changes
 * return a new ACL.
 */
public record Acl(String username, List<Policy> policies) {
    public static final String USER_SUBJECT_PREFIX = "User:";

    public Acl {
        policies = List.copyOf(policies);
    }

    public String subject() {
        return USER_SUBJECT_PREFIX + username;
    }

    /**
     * The username of a subject key {@code User:<name>} (type in any case), or null when it is not a user subject
     * (the only subject type there is).
     */
    public static String usernameOf(String subject) {
        if (subject == null) {
            return null;
        }
        int colon = subject.indexOf(':');
        String type = colon < 0 ? subject : subject.substring(0, colon);
        if (!type.equalsIgnoreCase("User")) {
            return null;
        }
        return colon < 0 ? "" : subject.substring(colon + 1);
    }

    public Policy policy(PolicyType type) {
        for (Policy policy : policies) {
            if (policy.type() == type) {
                return policy;
            }
        }
        return null;
    }

    /** Per policy type: a new type is added, an existing one merged entry by entry (see {@link Policy#mergedWith}). */
    public Acl mergedWith(List<Policy> update) {
        List<Policy> merged = new ArrayList<>(policies);
        for (Policy policy : update) {
            Policy old = policyIn(merged, policy.type());
            if (old == null) {
                merged.add(policy);
            } else {
                merged.set(merged.indexOf(old), old.mergedWith(policy.entries()));
            }
        }
        return new Acl(username, merged);
    }

    /** Without the entry for {@code resource} in the {@code type} policy; a policy left empty goes too. */
    public Acl without(PolicyType type, Resource resource) {
        List<Policy> kept = new ArrayList<>(policies);
        Policy old = policyIn(kept, type);
        if (old == null) {
            return this;
        }
        Policy remaining = old.without(resource);
        if (remaining.entries().isEmpty()) {
            kept.remove(old);
        } else {
            kept.set(kept.indexOf(old), remaining);
        }
        return new Acl(username, kept);
    }

    private static Policy policyIn(List<Policy> policies, PolicyType type) {
        for (Policy policy : policies) {
            if (policy.type() == type) {
                return policy;
            }
        }
        return null;
    }
}
