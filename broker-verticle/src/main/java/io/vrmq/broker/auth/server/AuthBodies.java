package io.vrmq.broker.auth.server;

import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.Action;
import io.vrmq.broker.auth.Decision;
import io.vrmq.broker.auth.Policy;
import io.vrmq.broker.auth.PolicyEntry;
import io.vrmq.broker.auth.PolicyType;
import io.vrmq.broker.auth.Resource;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.UserStatus;
import io.vrmq.broker.auth.UserType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The JSON bodies of the admin codes 3001-3010 (Apache's UserInfo and AclInfo), also the form of the broker's
 * {@code config/users.json} and {@code config/acls.json} and of the admin HTTP API, and their conversion to the
 * model the way Apache's converters do it (unknown action names are dropped, a missing policy type is Custom).
 * Records: immutable, any thread.
 */
public final class AuthBodies {
    private AuthBodies() {
    }

    /** {@code {"username","password","userType":"Super|Normal","userStatus":"enable|disable"}}. */
    public record UserInfo(String username, String password, String userType, String userStatus) {
        public static UserInfo of(User user) {
            return new UserInfo(user.username(), user.password(),
                user.userType() == null ? null : user.userType().displayName(),
                user.userStatus() == null ? null : user.userStatus().displayName());
        }

        public User toUser() {
            return new User(username, password, UserType.byName(userType), UserStatus.byName(userStatus));
        }

        /** Never the password in a log line. */
        @Override
        public String toString() {
            return "UserInfo[" + username + ", " + userType + ", " + userStatus + "]";
        }
    }

    /** {@code {"subject":"User:u","policies":[PolicyInfo]}}. */
    public record AclInfo(String subject, List<PolicyInfo> policies) {
        public static AclInfo of(Acl acl) {
            return new AclInfo(acl.subject(), acl.policies().stream().map(PolicyInfo::of).toList());
        }

        /** The model; {@code fallbackUsername} when the body names no (user) subject. */
        public Acl toAcl(String fallbackUsername) {
            String username = Acl.usernameOf(subject);
            List<Policy> converted = new ArrayList<>();
            for (PolicyInfo policy : Objects.requireNonNullElse(policies, List.<PolicyInfo>of())) {
                if (policy != null && policy.entries() != null && !policy.entries().isEmpty()) {
                    converted.add(policy.toPolicy());
                }
            }
            return new Acl(username != null ? username : fallbackUsername, converted);
        }
    }

    /** {@code {"policyType":"Custom|Default","entries":[PolicyEntryInfo]}}. */
    public record PolicyInfo(String policyType, List<PolicyEntryInfo> entries) {
        static PolicyInfo of(Policy policy) {
            return new PolicyInfo(policy.type() == null ? null : policy.type().displayName(),
                policy.entries().stream().map(PolicyEntryInfo::of).toList());
        }

        Policy toPolicy() {
            return new Policy(PolicyType.byName(policyType), entries.stream().filter(Objects::nonNull)
                .map(PolicyEntryInfo::toEntry).toList());
        }
    }

    /** {@code {"resource":"Topic:t","actions":["Pub"],"sourceIps":["10.0.0.0/8"],"decision":"Allow|Deny"}}. */
    public record PolicyEntryInfo(String resource, List<String> actions, List<String> sourceIps, String decision) {
        static PolicyEntryInfo of(PolicyEntry entry) {
            return new PolicyEntryInfo(entry.resource().key(),
                entry.actions().isEmpty() ? null : entry.actions().stream().map(Action::displayName).toList(),
                entry.sourceIps().isEmpty() ? null : entry.sourceIps(), entry.decision().displayName());
        }

        PolicyEntry toEntry() {
            List<Action> known = Objects.requireNonNullElse(actions, List.<String>of()).stream()
                .map(Action::byName).filter(Objects::nonNull).toList();
            List<String> ips = Objects.requireNonNullElse(sourceIps, List.<String>of()).stream()
                .map(ip -> ip == null ? "" : ip).toList();
            return new PolicyEntry(Resource.parse(resource), known, ips, Decision.byName(decision));
        }
    }
}
