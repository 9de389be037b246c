package io.vrmq.client.consumer;

import io.vrmq.client.ReceivedMessage;

import java.util.List;

/** Hands pulled messages to the user's listener and settles their offsets. Confined to the consumer's context. */
public interface ConsumeService {
    /** {@code messages} were just put into {@code queue}. */
    void submit(ProcessQueue queue, List<ReceivedMessage> messages);
}
