package io.vrmq.broker.auth;

/** A disabled user is refused as if unknown. */
public enum UserStatus {
    ENABLE("enable"), DISABLE("disable");

    private final String displayName;

    UserStatus(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The value named {@code name} (any case), or null. */
    public static UserStatus byName(String name) {
        return NameLookup.find(values(), name, UserStatus::displayName);
    }
}
