package io.vrmq.broker.auth;

/** A Super user passes every authorization check; a Normal one needs ACL entries. */
public enum UserType {
    SUPER("Super"), NORMAL("Normal");

    private final String displayName;

    UserType(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The value named {@code name} (any case), or null. */
    public static UserType byName(String name) {
        return NameLookup.find(values(), name, UserType::displayName);
    }
}
