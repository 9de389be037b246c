package io.vrmq.broker.auth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One account of ACL 1.0's {@code plain_acl.yml}, and its ACL 2.0 form as Apache's AuthMigrator makes it: the
 * access key and secret become the user (Super when {@code admin}); {@code topicPerms}/{@code groupPerms}
 * ({@code name=PUB|SUB|PUB|SUB|SUB|PUB|DENY}) become Custom entries; {@code defaultTopicPerm}/{@code defaultGroupPerm}
 * become Default entries on {@code Topic:*}/{@code Group:*}. DENY (and anything unknown) means all actions; only
 * DENY denies. White addresses are not migrated. Immutable.
 */
public record PlainAclAccount(String accessKey, String secretKey, boolean admin, String defaultTopicPerm,
                              String defaultGroupPerm, List<String> topicPerms, List<String> groupPerms) {
    private static final String DENY = "DENY";

    public PlainAclAccount {
        topicPerms = topicPerms == null ? List.of() : List.copyOf(topicPerms);
        groupPerms = groupPerms == null ? List.of() : List.copyOf(groupPerms);
    }

    public User user() {
        return new User(accessKey, secretKey, admin ? UserType.SUPER : UserType.NORMAL, UserStatus.ENABLE);
    }

    /** The account's ACL, or null when it has no permission at all (then only the user is created). */
    public Acl acl() {
        List<PolicyEntry> custom = new ArrayList<>();
        addNamed(custom, topicPerms, false);
        addNamed(custom, groupPerms, true);
        List<PolicyEntry> defaults = new ArrayList<>();
        addDefault(defaults, ResourceType.TOPIC, defaultTopicPerm);
        addDefault(defaults, ResourceType.GROUP, defaultGroupPerm);
        List<Policy> policies = new ArrayList<>();
        if (!custom.isEmpty()) {
            policies.add(new Policy(PolicyType.CUSTOM, custom));
        }
        if (!defaults.isEmpty()) {
            policies.add(new Policy(PolicyType.DEFAULT, defaults));
        }
        return policies.isEmpty() ? null : new Acl(accessKey, policies);
    }

    private static void addNamed(List<PolicyEntry> entries, List<String> perms, boolean isGroup) {
        for (String namePerm : perms) {
            String[] parts = namePerm == null ? new String[0]
                : Arrays.stream(namePerm.split("=")).filter(part -> !part.isEmpty()).toArray(String[]::new);
            if (parts.length != 2) {
                continue;   // Apache skips what is not name=perm
            }
            String name = parts[0].trim();
            String perm = parts[1].trim();
            entries.add(new PolicyEntry(isGroup ? Resource.group(name) : Resource.topic(name), actions(perm),
                List.of(), decision(perm)));
        }
    }

    private static void addDefault(List<PolicyEntry> entries, ResourceType type, String perm) {
        if (perm == null || perm.isBlank()) {
            return;
        }
        entries.add(new PolicyEntry(new Resource(type, null, Resource.Pattern.ANY), actions(perm.trim()), List.of(),
            decision(perm.trim())));
    }

    static List<Action> actions(String perm) {
        return switch (perm == null ? "" : perm.trim()) {
            case "PUB" -> List.of(Action.PUB);
            case "SUB" -> List.of(Action.SUB);
            case "PUB|SUB", "SUB|PUB" -> List.of(Action.PUB, Action.SUB);
            default -> List.of(Action.ALL);
        };
    }

    static Decision decision(String perm) {
        return perm == null || perm.isBlank() || perm.trim().equals(DENY) ? Decision.DENY : Decision.ALLOW;
    }
}
