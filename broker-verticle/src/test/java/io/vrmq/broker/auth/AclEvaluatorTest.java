package io.vrmq.broker.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Apache's evaluation order: Custom before Default, literal over prefix over "*", longer prefix first, Deny on ties. */
@Timeout(value = 5, unit = TimeUnit.SECONDS)
class AclEvaluatorTest {
    private static final String IP = "10.1.2.3";

    private static PolicyEntry entry(String resource, Decision decision, Action... actions) {
        return new PolicyEntry(Resource.parse(resource), List.of(actions), List.of(), decision);
    }

    private static Acl acl(List<PolicyEntry> custom, List<PolicyEntry> defaults) {
        return new Acl("u", List.of(new Policy(PolicyType.CUSTOM, custom), new Policy(PolicyType.DEFAULT,
            defaults)));
    }

    private static Decision decide(Acl acl, String resource, Action... actions) {
        PolicyEntry deciding = AclEvaluator.decidingEntry(acl, AccessRequest.of(Resource.parse(resource), actions),
            IP);
        return deciding == null ? null : deciding.decision();
    }

    @Test
    void aLiteralNameBeatsAPrefixWhichBeatsTheTypeWildcardWhichBeatsAnything() {
        Acl acl = acl(List.of(entry("*", Decision.DENY, Action.ALL), entry("Topic:*", Decision.ALLOW, Action.PUB),
            entry("Topic:ord*", Decision.DENY, Action.PUB), entry("Topic:orders", Decision.ALLOW, Action.PUB)),
            List.of());
        assertEquals(Decision.ALLOW, decide(acl, "Topic:orders", Action.PUB));
        assertEquals(Decision.DENY, decide(acl, "Topic:ordinal", Action.PUB));
        assertEquals(Decision.ALLOW, decide(acl, "Topic:other", Action.PUB));
        assertEquals(Decision.DENY, decide(acl, "Group:g", Action.SUB));
    }

    @Test
    void aLongerPrefixBeatsAShorterOne() {
        Acl acl = acl(List.of(entry("Topic:a*", Decision.DENY, Action.PUB), entry("Topic:abc*", Decision.ALLOW,
            Action.PUB)), List.of());
        assertEquals(Decision.ALLOW, decide(acl, "Topic:abcd", Action.PUB));
        assertEquals(Decision.DENY, decide(acl, "Topic:abd", Action.PUB));
    }

    @Test
    void denyWinsATieOfEquallySpecificEntries() {
        Acl acl = acl(List.of(entry("Topic:t*", Decision.ALLOW, Action.PUB), entry("Topic:t*", Decision.DENY,
            Action.ALL)), List.of());
        assertEquals(Decision.DENY, decide(acl, "Topic:t1", Action.PUB));
    }

    @Test
    void defaultEntriesCountOnlyWhenNoCustomEntryMatches() {
        Acl acl = acl(List.of(entry("Topic:t", Decision.ALLOW, Action.SUB)),
            List.of(entry("Topic:*", Decision.DENY, Action.ALL), entry("Group:*", Decision.ALLOW, Action.SUB)));
        assertEquals(Decision.ALLOW, decide(acl, "Topic:t", Action.SUB));
        assertEquals(Decision.DENY, decide(acl, "Topic:t", Action.PUB));
        assertEquals(Decision.DENY, decide(acl, "Topic:other", Action.SUB));
        assertEquals(Decision.ALLOW, decide(acl, "Group:g", Action.SUB));
    }

    @Test
    void anyRequestedActionSufficesAndAllCoversEveryAction() {
        Acl acl = acl(List.of(entry("Topic:t", Decision.ALLOW, Action.GET), entry("Group:g", Decision.ALLOW,
            Action.ALL)), List.of());
        assertEquals(Decision.ALLOW, decide(acl, "Topic:t", Action.SUB, Action.GET));
        assertNull(decide(acl, "Topic:t", Action.PUB));
        assertEquals(Decision.ALLOW, decide(acl, "Group:g", Action.UPDATE));
    }

    @Test
    void anEntryLimitedToSourceIpsMatchesOnlyFromThem() {
        Acl inRange = acl(List.of(new PolicyEntry(Resource.parse("Topic:t"), List.of(Action.PUB),
            List.of("10.0.0.0/8"), Decision.ALLOW)), List.of());
        Acl elsewhere = acl(List.of(new PolicyEntry(Resource.parse("Topic:t"), List.of(Action.PUB),
            List.of("192.168.0.1", "fe80::/10"), Decision.ALLOW)), List.of());
        assertEquals(Decision.ALLOW, decide(inRange, "Topic:t", Action.PUB));
        assertNull(decide(elsewhere, "Topic:t", Action.PUB));
    }

    @Test
    void aRetryTopicIsCheckedAsItsGroup() {
        assertEquals(Resource.parse("Group:cg"), Resource.topicOrRetryGroup("%RETRY%cg"));
        assertEquals(Resource.parse("Topic:t"), Resource.topicOrRetryGroup("t"));
    }
}
