package io.vrmq.broker.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** ACL 1.0 accounts as Apache's AuthMigrator turns them into ACL 2.0 users and ACLs. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class PlainAclAccountTest {
    private static final String IP = "127.0.0.1";

    private static Decision decide(Acl acl, Resource resource, Action action) {
        PolicyEntry entry = AclEvaluator.decidingEntry(acl, AccessRequest.of(resource, action), IP);
        return entry == null ? null : entry.decision();
    }

    @Test
    void permsBecomeCustomEntriesAndDefaultsDefaultEntriesWhereANamedDenyBeatsTheDefault() {
        PlainAclAccount account = new PlainAclAccount("RocketMQ", "12345678", false, "PUB", "SUB",
            List.of("topicA=DENY", "topicB=PUB|SUB", "topicC=SUB", "not-a-perm"), List.of("groupA=DENY",
                "%RETRY%groupB=SUB"));
        Acl acl = account.acl();
        assertEquals(new User("RocketMQ", "12345678", UserType.NORMAL, UserStatus.ENABLE), account.user());
        assertEquals(5, acl.policy(PolicyType.CUSTOM).entries().size());
        assertEquals(Decision.DENY, decide(acl, Resource.topic("topicA"), Action.PUB));
        assertEquals(Decision.ALLOW, decide(acl, Resource.topic("topicB"), Action.SUB));
        // topicC=SUB matches no PUB request, so the default (PUB) decides
        assertEquals(Decision.ALLOW, decide(acl, Resource.topic("topicC"), Action.PUB));
        assertEquals(Decision.ALLOW, decide(acl, Resource.topic("fresh"), Action.PUB));
        assertNull(decide(acl, Resource.topic("fresh"), Action.SUB));
        assertEquals(Decision.DENY, decide(acl, Resource.group("groupA"), Action.SUB));
        assertEquals(Decision.ALLOW, decide(acl, Resource.group("groupB"), Action.SUB));
        assertEquals(Decision.ALLOW, decide(acl, Resource.group("other"), Action.SUB));
    }

    @Test
    void anAdminBecomesASuperUserAndAnAccountWithoutPermsGetsNoAcl() {
        PlainAclAccount admin = new PlainAclAccount("root", "pw", true, null, null, null, null);
        assertEquals(UserType.SUPER, admin.user().userType());
        assertNull(admin.acl());
    }

    @Test
    void aPermIsAllActionsUnlessPubSubOrBothAndOnlyDenyDenies() {
        assertEquals(List.of(Action.PUB, Action.SUB), PlainAclAccount.actions("SUB|PUB"));
        assertEquals(List.of(Action.ALL), PlainAclAccount.actions("DENY"));
        assertEquals(List.of(Action.ALL), PlainAclAccount.actions("ANY"));
        assertEquals(Decision.DENY, PlainAclAccount.decision("DENY"));
        assertEquals(Decision.ALLOW, PlainAclAccount.decision("ANY"));
    }
}
