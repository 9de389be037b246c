package io.vrmq.broker.auth;

/** The kind of thing an ACL entry names; ANY is the bare "*" resource. */
public enum ResourceType {
    ANY("Any"), CLUSTER("Cluster"), NAMESPACE("Namespace"), TOPIC("Topic"), GROUP("Group");

    private final String displayName;

    ResourceType(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The value named {@code name} (any case), or null. */
    public static ResourceType byName(String name) {
        return NameLookup.find(values(), name, ResourceType::displayName);
    }
}
