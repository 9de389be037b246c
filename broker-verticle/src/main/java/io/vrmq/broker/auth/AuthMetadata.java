package io.vrmq.broker.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The users and ACLs of one broker, in memory, with the rules of Apache's user and ACL managers (validation,
 * merging, the messages of their refusals). Persisting them is the caller's job (see the server package).
 *
 * <p>Thread-safe: reads (every authenticated request) are lock-free map lookups of immutable values; changes are
 * serialised on this object, so a check-then-write (create if absent, merge) is atomic.
 */
public final class AuthMetadata {
    private final NavigableMap<String, User> users = new ConcurrentSkipListMap<>();
    private final NavigableMap<String, Acl> acls = new ConcurrentSkipListMap<>();

    public User user(String username) {
        return username == null ? null : users.get(username);
    }

    public Acl acl(String username) {
        return username == null ? null : acls.get(username);
    }

    /** Users whose name contains {@code filter} (all when blank), sorted by name. */
    public List<User> users(String filter) {
        return users.values().stream().filter(user -> isBlank(filter) || user.username().contains(filter)).toList();
    }

    /**
     * ACLs whose subject contains {@code subjectFilter}, keeping only the entries whose resource key contains
     * {@code resourceFilter} (either blank: no filter); ACLs left without entries are left out.
     */
    public List<Acl> acls(String subjectFilter, String resourceFilter) {
        List<Acl> result = new ArrayList<>();
        for (Acl acl : acls.values()) {
            if (!isBlank(subjectFilter) && !acl.subject().contains(subjectFilter)) {
                continue;
            }
            List<Policy> policies = new ArrayList<>();
            for (Policy policy : acl.policies()) {
                List<PolicyEntry> entries = policy.entries().stream().filter(entry -> isBlank(resourceFilter)
                    || entry.resource().key().contains(resourceFilter)).toList();
                if (!entries.isEmpty()) {
                    policies.add(new Policy(policy.type(), entries));
                }
            }
            if (!policies.isEmpty()) {
                result.add(new Acl(acl.username(), policies));
            }
        }
        return result;
    }

    /** Creates {@code user}: Normal and enabled unless it says otherwise. */
    public synchronized void createUser(User user) {
        requireUsername(user.username());
        if (isBlank(user.password())) {
            throw new AuthException("password can not be blank");
        }
        if (users.containsKey(user.username())) {
            throw new AuthException("The user is existed");
        }
        users.put(user.username(), new User(user.username(), user.password(),
            Objects.requireNonNullElse(user.userType(), UserType.NORMAL),
            Objects.requireNonNullElse(user.userStatus(), UserStatus.ENABLE)));
    }

    /** Creates {@code user} unless a user of that name exists; whether it did. */
    public synchronized boolean createUserIfAbsent(User user) {
        if (users.containsKey(user.username())) {
            return false;
        }
        createUser(user);
        return true;
    }

    /** Changes the fields {@code update} has (a blank password keeps the old one). */
    public synchronized void updateUser(User update) {
        requireUsername(update.username());
        User old = users.get(update.username());
        if (old == null) {
            throw new AuthException("The user is not exist");
        }
        users.put(old.username(), new User(old.username(),
            isBlank(update.password()) ? old.password() : update.password(),
            Objects.requireNonNullElse(update.userType(), old.userType()),
            Objects.requireNonNullElse(update.userStatus(), old.userStatus())));
    }

    /** Deletes the user and its ACL; deleting a user that does not exist is not an error. */
    public synchronized void deleteUser(String username) {
        requireUsername(username);
        users.remove(username);
        acls.remove(username);
    }

    /**
     * Creates the ACL of {@code update.username()}, or merges {@code update} into it (createAcl and updateAcl do
     * the same). Policies without a type are Custom.
     */
    public synchronized void mergeAcl(Acl update) {
        List<Policy> policies = validated(update);
        if (!users.containsKey(update.username())) {
            throw new AuthException("The subject of " + update.subject() + " is not exist.");
        }
        Acl old = acls.get(update.username());
        acls.put(update.username(), old == null ? new Acl(update.username(), policies) : old.mergedWith(policies));
    }

    /**
     * Removes the {@code type} (Custom when null) entry for {@code resource}; with no resource, or when nothing is
     * left, the whole ACL.
     */
    public synchronized void deleteAcl(String username, PolicyType type, Resource resource) {
        if (username == null) {
            throw new AuthException("The subject is null.");
        }
        if (!users.containsKey(username)) {
            throw new AuthException("The subject is not exist.");
        }
        Acl old = acls.get(username);
        if (old == null) {
            throw new AuthException("The acl is not exist.");
        }
        Acl remaining = resource == null ? null
            : old.without(type == null ? PolicyType.CUSTOM : type, resource);
        if (remaining == null || remaining.policies().isEmpty()) {
            acls.remove(username);
        } else {
            acls.put(username, remaining);
        }
    }

    /** The ACL of an existing user (null when it has none). */
    public Acl requireAcl(String username) {
        if (username == null) {
            throw new AuthException("The subject is null.");
        }
        if (!users.containsKey(username)) {
            throw new AuthException("The subject is not exist.");
        }
        return acls.get(username);
    }

    /** Replaces everything with a copy (a slave following its master); whether anything changed. */
    public synchronized boolean replaceAll(List<User> newUsers, List<Acl> newAcls) {
        Map<String, User> userMap = new ConcurrentSkipListMap<>();
        newUsers.forEach(user -> userMap.put(user.username(), user));
        Map<String, Acl> aclMap = new ConcurrentSkipListMap<>();
        newAcls.forEach(acl -> aclMap.put(acl.username(), acl));
        if (userMap.equals(users) && aclMap.equals(acls)) {
            return false;
        }
        users.keySet().retainAll(userMap.keySet());
        users.putAll(userMap);
        acls.keySet().retainAll(aclMap.keySet());
        acls.putAll(aclMap);
        return true;
    }

    /** What to persist: every user, sorted by name. */
    public List<User> allUsers() {
        return List.copyOf(users.values());
    }

    public List<Acl> allAcls() {
        return List.copyOf(acls.values());
    }

    private static List<Policy> validated(Acl acl) {
        if (acl.policies().isEmpty()) {
            throw new AuthException("The policies is empty.");
        }
        List<Policy> typed = new ArrayList<>();
        for (Policy policy : acl.policies()) {
            if (policy.entries().isEmpty()) {
                throw new AuthException("The policy entries is empty.");
            }
            policy.entries().forEach(AuthMetadata::validate);
            typed.add(policy.type() == null ? new Policy(PolicyType.CUSTOM, policy.entries()) : policy);
        }
        return typed;
    }

    private static void validate(PolicyEntry entry) {
        if (entry.resource() == null) {
            throw new AuthException("The resource is null.");
        }
        if (entry.actions().isEmpty()) {
            throw new AuthException("The actions is empty.");
        }
        if (entry.actions().contains(Action.ANY)) {
            throw new AuthException("The actions can not be Any.");
        }
        for (String sourceIp : entry.sourceIps()) {
            if (isBlank(sourceIp)) {
                throw new AuthException("The source ip is empty.");
            }
            if (!SourceIps.isValidIpOrCidr(sourceIp)) {
                throw new AuthException("The source ip is invalid.");
            }
        }
        if (entry.decision() == null) {
            throw new AuthException("The decision is null or illegal.");
        }
    }

    private static void requireUsername(String username) {
        if (isBlank(username)) {
            throw new AuthException("username can not be blank");
        }
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
