package io.vrmq.remoting.body;

/** One producer group of a client, as heartbeats carry it. */
public record ProducerData(String groupName) {
}
