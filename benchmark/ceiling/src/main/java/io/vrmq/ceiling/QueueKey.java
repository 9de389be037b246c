package io.vrmq.ceiling;

/** One message queue of one topic. */
record QueueKey(String topic, int queueId) {
}
