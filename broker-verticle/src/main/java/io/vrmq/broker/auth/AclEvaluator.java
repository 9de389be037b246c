package io.vrmq.broker.auth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Apache RocketMQ's ACL 2.0 decision for one resource: the Custom entries whose resource, actions and source IP all
 * match; only if none does, the Default entries; then the most specific entry decides (a literal name before a
 * prefix, a longer prefix before a shorter one, anything before {@code *}), Deny before Allow on a tie. No match at
 * all is a denial. Pure and stateless.
 */
public final class AclEvaluator {
    /** Apache's precedence of two matching entries: negative when {@code a} decides before {@code b}. */
    static final Comparator<PolicyEntry> PRECEDENCE = AclEvaluator::compare;

    private AclEvaluator() {
    }

    /** The entry that decides {@code request} from {@code sourceIp}, or null when none matches. */
    public static PolicyEntry decidingEntry(Acl acl, AccessRequest request, String sourceIp) {
        List<PolicyEntry> matched = matching(acl.policy(PolicyType.CUSTOM), request, sourceIp);
        if (matched.isEmpty()) {
            matched = matching(acl.policy(PolicyType.DEFAULT), request, sourceIp);
        }
        return matched.stream().min(PRECEDENCE).orElse(null);
    }

    private static List<PolicyEntry> matching(Policy policy, AccessRequest request, String sourceIp) {
        List<PolicyEntry> matched = new ArrayList<>();
        if (policy == null) {
            return matched;
        }
        for (PolicyEntry entry : policy.entries()) {
            if (entry.resource() != null && entry.resource().covers(request.resource())
                && entry.matchesActions(request.actions()) && entry.matchesSourceIp(sourceIp)) {
                matched.add(entry);
            }
        }
        return matched;
    }

    private static int compare(PolicyEntry a, PolicyEntry b) {
        int bySpecificity = compareSpecificity(a.resource(), b.resource());
        if (bySpecificity != 0) {
            return bySpecificity;
        }
        if (a.decision() != b.decision()) {
            return a.decision() == Decision.DENY ? -1 : 1;
        }
        return 0;
    }

    private static int compareSpecificity(Resource a, Resource b) {
        if (a.type() != b.type()) {
            if (a.type() == ResourceType.ANY) {
                return 1;
            }
            return b.type() == ResourceType.ANY ? -1 : 0;
        }
        if (a.pattern() == b.pattern()) {
            return a.pattern() == Resource.Pattern.PREFIXED
                ? -Integer.compare(a.name().length(), b.name().length()) : 0;
        }
        return Integer.compare(a.pattern().ordinal(), b.pattern().ordinal());   // LITERAL, PREFIXED, ANY
    }
}
