package io.vrmq.broker.auth;

/** What a request does to a resource, with RocketMQ's names. ANY only appears in requests, never in stored ACLs. */
public enum Action {
    ALL("All"), ANY("Any"), PUB("Pub"), SUB("Sub"), CREATE("Create"), UPDATE("Update"), DELETE("Delete"),
    GET("Get"), LIST("List");

    private final String displayName;

    Action(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** The action named {@code name} (any case), or null. */
    public static Action byName(String name) {
        return name == null ? null : NameLookup.find(values(), name, Action::displayName);
    }
}
