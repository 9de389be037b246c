package io.vrmq.store;

/** Decides from a ConsumeQueue entry's tagsCode whether a read returns the message. Must be cheap and pure. */
@FunctionalInterface
public interface TagFilter {
    TagFilter ALL = tagsCode -> true;

    boolean matches(long tagsCode);
}
