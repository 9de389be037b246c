package io.vrmq.client;

/** CLUSTERING: the group shares the queues, offsets on the broker. BROADCASTING: every consumer gets everything. */
public enum MessageModel {
    CLUSTERING,
    BROADCASTING
}
