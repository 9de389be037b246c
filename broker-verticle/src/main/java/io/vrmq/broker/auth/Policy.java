package io.vrmq.broker.auth;

import java.util.ArrayList;
import java.util.List;

/** The Custom or the Default entries of one ACL. Immutable; changes return a new policy. */
public record Policy(PolicyType type, List<PolicyEntry> entries) {
    public Policy {
        entries = List.copyOf(entries);
    }

    /** Entries of {@code update} replace ours of the same resource, the others are appended (Apache's merge). */
    public Policy mergedWith(List<PolicyEntry> update) {
        List<PolicyEntry> merged = new ArrayList<>(entries);
        for (PolicyEntry entry : update) {
            int index = indexOf(merged, entry.resource());
            if (index < 0) {
                merged.add(entry);
            } else {
                merged.set(index, merged.get(index).updatedBy(entry));
            }
        }
        return new Policy(type, merged);
    }

    public Policy without(Resource resource) {
        List<PolicyEntry> kept = new ArrayList<>(entries);
        int index = indexOf(kept, resource);
        if (index >= 0) {
            kept.remove(index);
        }
        return new Policy(type, kept);
    }

    private static int indexOf(List<PolicyEntry> entries, Resource resource) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).resource().equals(resource)) {
                return i;
            }
        }
        return -1;
    }
}
