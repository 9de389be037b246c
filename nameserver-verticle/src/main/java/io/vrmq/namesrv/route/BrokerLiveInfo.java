package io.vrmq.namesrv.route;

import io.vrmq.remoting.body.DataVersion;
import io.vrmq.remoting.transport.RemotingConnection;

/**
 * What the NameServer knows of a live broker process. Immutable: a heartbeat replaces the entry.
 *
 * @param heartbeatTimeoutMs how long the broker may stay silent; its own value when it sent one, else the
 *                           configured brokerChannelExpiredTime
 */
public record BrokerLiveInfo(long lastUpdateTimestamp, long heartbeatTimeoutMs, DataVersion dataVersion,
                             RemotingConnection connection, String haServerAddr) {
    public BrokerLiveInfo touched(long nowMs) {
        return new BrokerLiveInfo(nowMs, heartbeatTimeoutMs, dataVersion, connection, haServerAddr);
    }

    public boolean isExpired(long nowMs) {
        return lastUpdateTimestamp + heartbeatTimeoutMs < nowMs;
    }
}
