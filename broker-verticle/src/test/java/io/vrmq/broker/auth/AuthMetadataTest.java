package io.vrmq.broker.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The rules of Apache's user and ACL managers, with their messages. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class AuthMetadataTest {
    private final AuthMetadata metadata = new AuthMetadata();

    private static PolicyEntry entry(String resource, Decision decision, Action... actions) {
        return new PolicyEntry(Resource.parse(resource), List.of(actions), List.of(), decision);
    }

    private void createNormal(String name) {
        metadata.createUser(new User(name, "secret", null, null));
    }

    private static String refusal(Runnable change) {
        return assertThrows(AuthException.class, change::run).getMessage();
    }

    @Test
    void aNewUserIsNormalAndEnabledAndCannotBeCreatedTwice() {
        createNormal("u");
        assertEquals(new User("u", "secret", UserType.NORMAL, UserStatus.ENABLE), metadata.user("u"));
        assertEquals("The user is existed", refusal(() -> createNormal("u")));
        assertEquals("password can not be blank", refusal(() -> metadata.createUser(new User("v", " ", null, null))));
    }

    @Test
    void anUpdateChangesOnlyTheFieldsItHas() {
        createNormal("u");
        metadata.updateUser(new User("u", "", null, UserStatus.DISABLE));
        assertEquals(new User("u", "secret", UserType.NORMAL, UserStatus.DISABLE), metadata.user("u"));
        assertEquals("The user is not exist", refusal(() -> metadata.updateUser(new User("x", "p", null, null))));
    }

    @Test
    void anAclNeedsItsUserAndMergesEntriesByResource() {
        Acl first = new Acl("u", List.of(new Policy(null, List.of(entry("Topic:t", Decision.ALLOW, Action.PUB)))));
        assertEquals("The subject of User:u is not exist.", refusal(() -> metadata.mergeAcl(first)));
        createNormal("u");
        metadata.mergeAcl(first);
        metadata.mergeAcl(new Acl("u", List.of(new Policy(PolicyType.CUSTOM, List.of(
            entry("Topic:t", Decision.DENY, Action.PUB), entry("Group:g", Decision.ALLOW, Action.SUB))))));
        assertEquals(List.of(entry("Topic:t", Decision.DENY, Action.PUB), entry("Group:g", Decision.ALLOW,
            Action.SUB)), metadata.acl("u").policy(PolicyType.CUSTOM).entries());
    }

    @Test
    void invalidEntriesAreRefusedWithApachesMessages() {
        createNormal("u");
        assertEquals("The actions can not be Any.", refusal(() -> metadata.mergeAcl(new Acl("u", List.of(
            new Policy(PolicyType.CUSTOM, List.of(entry("Topic:t", Decision.ALLOW, Action.ANY))))))));
        assertEquals("The source ip is invalid.", refusal(() -> metadata.mergeAcl(new Acl("u", List.of(
            new Policy(PolicyType.CUSTOM, List.of(new PolicyEntry(Resource.parse("Topic:t"), List.of(Action.PUB),
                List.of("nohost"), Decision.ALLOW))))))));
        assertEquals("The resource is null.", refusal(() -> metadata.mergeAcl(new Acl("u", List.of(
            new Policy(PolicyType.CUSTOM, List.of(entry("Queue:t", Decision.ALLOW, Action.PUB))))))));
        assertEquals("The decision is null or illegal.", refusal(() -> metadata.mergeAcl(new Acl("u", List.of(
            new Policy(PolicyType.CUSTOM, List.of(entry("Topic:t", null, Action.PUB))))))));
    }

    @Test
    void deletingTheLastEntryOrWithoutResourceDeletesTheWholeAcl() {
        createNormal("u");
        metadata.mergeAcl(new Acl("u", List.of(new Policy(PolicyType.CUSTOM, List.of(
            entry("Topic:t", Decision.ALLOW, Action.PUB), entry("Group:g", Decision.ALLOW, Action.SUB))))));
        metadata.deleteAcl("u", null, Resource.parse("Topic:t"));
        assertEquals(1, metadata.acl("u").policy(PolicyType.CUSTOM).entries().size());
        metadata.deleteAcl("u", PolicyType.CUSTOM, Resource.parse("Group:g"));
        assertNull(metadata.acl("u"));
        assertEquals("The acl is not exist.", refusal(() -> metadata.deleteAcl("u", null, null)));
    }

    @Test
    void deletingAUserDeletesItsAcl() {
        createNormal("u");
        metadata.mergeAcl(new Acl("u", List.of(new Policy(PolicyType.CUSTOM, List.of(
            entry("Topic:t", Decision.ALLOW, Action.PUB))))));
        metadata.deleteUser("u");
        assertNull(metadata.user("u"));
        assertNull(metadata.acl("u"));
    }

    @Test
    void listsFilterBySubstringsAndDropAclsLeftWithoutEntries() {
        createNormal("alice");
        createNormal("bob");
        metadata.mergeAcl(new Acl("alice", List.of(new Policy(PolicyType.CUSTOM, List.of(
            entry("Topic:orders", Decision.ALLOW, Action.PUB), entry("Group:g", Decision.ALLOW, Action.SUB))))));
        metadata.mergeAcl(new Acl("bob", List.of(new Policy(PolicyType.CUSTOM, List.of(
            entry("Group:g", Decision.ALLOW, Action.SUB))))));
        assertEquals(List.of("alice"), metadata.users("lic").stream().map(User::username).toList());
        List<Acl> withOrders = metadata.acls(null, "orders");
        assertEquals(1, withOrders.size());
        assertEquals(1, withOrders.get(0).policies().get(0).entries().size());
        assertEquals(List.of("bob"), metadata.acls("User:b", null).stream().map(Acl::username).toList());
    }
}
