package io.vrmq.client.consumer;

import io.vrmq.client.ReceivedMessage;

import java.util.List;

/**
 * A PULL_MESSAGE answer: the response code (SUCCESS, PULL_NOT_FOUND, PULL_RETRY_IMMEDIATELY, PULL_OFFSET_MOVED),
 * where to pull next, the queue's bounds, and the decoded messages (only for SUCCESS, before the tag re-filter).
 */
public record PullResult(int code, long nextBeginOffset, long minOffset, long maxOffset,
                         List<ReceivedMessage> messages) {
}
