package io.vrmq.broker.auth;

/** What a matching ACL entry decides; Deny wins a tie. */
public enum Decision {
    ALLOW("Allow"), DENY("Deny");

    private final String displayName;

    Decision(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The value named {@code name} (any case), or null. */
    public static Decision byName(String name) {
        return NameLookup.find(values(), name, Decision::displayName);
    }
}
