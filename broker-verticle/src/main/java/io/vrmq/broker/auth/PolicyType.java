package io.vrmq.broker.auth;

/** Custom entries are consulted first; Default ones only when no Custom entry matched. */
public enum PolicyType {
    CUSTOM("Custom"), DEFAULT("Default");

    private final String displayName;

    PolicyType(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The value named {@code name} (any case), or null. */
    public static PolicyType byName(String name) {
        return NameLookup.find(values(), name, PolicyType::displayName);
    }
}
