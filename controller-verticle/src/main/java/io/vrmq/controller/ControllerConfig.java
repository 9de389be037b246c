package io.vrmq.controller;

import io.vertx.core.json.JsonObject;
import io.vrmq.remoting.transport.RemotingLimits;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The controller's settings (keys and defaults in {@code controller-defaults.json}; RocketMQ's ControllerConfig names
 * where it has one). Validated once at start: a bad value stops the start with a message naming it. Immutable.
 *
 * @param peers        every node's controller-protocol address ({@code controllerDLegerPeers}); brokers put these in
 *                     controllerAddr
 * @param raftPeers    every node's Raft address, same ids ({@code controllerRaftPeers}; by default each controller
 *                     port + {@link #RAFT_PORT_OFFSET})
 * @param storePath    the Raft log and snapshots live in {@code <storePath>/<selfId>}
 */
public record ControllerConfig(String group, List<ControllerPeer> peers, String selfId, List<ControllerPeer> raftPeers,
                               String storePath, String bindAddress, long scanNotActiveBrokerIntervalMs,
                               long scanInactiveMasterIntervalMs, int electMasterMaxRetryCount,
                               boolean enableElectUncleanMaster, boolean notifyBrokerRoleChanged,
                               Set<String> configBlackList, String configStorePath, long snapshotThresholdEntries,
                               long raftElectionTimeoutMinMs, long raftElectionTimeoutMaxMs, long raftCommitTimeoutMs,
                               long brokerHeartbeatTimeoutMs, int adminPort, String adminHost, RemotingLimits limits,
                               int maxConnections, long shutdownGraceMs) {
    /** The Raft port of a peer when controllerRaftPeers is empty: its controller port + 1000. */
    public static final int RAFT_PORT_OFFSET = 1000;
    /** Keys that name a path or the black list itself: never changeable over the network, whatever the file says. */
    public static final Set<String> ALWAYS_BLACK_LISTED = Set.of("configBlackList", "configStorePath",
        "controllerStorePath", "rocketmqHome");

    public ControllerConfig {
        requireText(group, "controllerDLegerGroup");
        requireText(selfId, "controllerDLegerSelfId");
        requireText(storePath, "controllerStorePath");
        requireText(bindAddress, "bindAddress");
        requireText(configStorePath, "configStorePath");
        requireText(adminHost, "adminHost");
        peers = List.copyOf(peers);
        raftPeers = List.copyOf(raftPeers);
        configBlackList = Collections.unmodifiableSet(new TreeSet<>(configBlackList));
        if (peers.stream().noneMatch(peer -> peer.id().equals(selfId))) {
            throw new IllegalArgumentException("invalid controllerDLegerSelfId: " + selfId
                + " is not one of the ids in controllerDLegerPeers " + ids(peers));
        }
        if (!ids(peers).equals(ids(raftPeers))) {
            throw new IllegalArgumentException("invalid controllerRaftPeers: ids " + ids(raftPeers)
                + " must be the ids of controllerDLegerPeers " + ids(peers));
        }
        require(scanNotActiveBrokerIntervalMs > 0, "scanNotActiveBrokerInterval", scanNotActiveBrokerIntervalMs);
        require(scanInactiveMasterIntervalMs > 0, "scanInactiveMasterInterval", scanInactiveMasterIntervalMs);
        require(electMasterMaxRetryCount >= 1, "electMasterMaxRetryCount", electMasterMaxRetryCount);
        require(snapshotThresholdEntries >= 1, "snapshotThresholdEntries", snapshotThresholdEntries);
        require(raftElectionTimeoutMinMs > 0, "raftElectionTimeoutMinMs", raftElectionTimeoutMinMs);
        require(raftElectionTimeoutMaxMs > raftElectionTimeoutMinMs,
            "raftElectionTimeoutMaxMs (must be above raftElectionTimeoutMinMs)", raftElectionTimeoutMaxMs);
        require(raftCommitTimeoutMs > 0, "raftCommitTimeoutMs", raftCommitTimeoutMs);
        require(brokerHeartbeatTimeoutMs > 0, "brokerHeartbeatTimeoutMs", brokerHeartbeatTimeoutMs);
        require(adminPort >= -1 && adminPort <= 65535, "adminPort (-1 disables)", adminPort);
        require(maxConnections > 0, "maxConnections", maxConnections);
        require(shutdownGraceMs > 0, "shutdownGraceMs", shutdownGraceMs);
    }

    public static ControllerConfig from(JsonObject json) {
        List<ControllerPeer> peers = ControllerPeer.parseList(setting(json, "controllerDLegerPeers", json::getString),
            "controllerDLegerPeers");
        String raftPeersText = setting(json, "controllerRaftPeers", json::getString);
        List<ControllerPeer> raftPeers = raftPeersText.isBlank() ? derivedRaftPeers(peers)
            : ControllerPeer.parseList(raftPeersText, "controllerRaftPeers");
        return new ControllerConfig(
            setting(json, "controllerDLegerGroup", json::getString),
            peers,
            setting(json, "controllerDLegerSelfId", json::getString),
            raftPeers,
            expandHome(setting(json, "controllerStorePath", json::getString)),
            setting(json, "bindAddress", json::getString),
            setting(json, "scanNotActiveBrokerInterval", json::getLong),
            setting(json, "scanInactiveMasterInterval", json::getLong),
            setting(json, "electMasterMaxRetryCount", json::getInteger),
            setting(json, "enableElectUncleanMaster", json::getBoolean),
            setting(json, "notifyBrokerRoleChanged", json::getBoolean),
            blackList(setting(json, "configBlackList", json::getString)),
            expandHome(setting(json, "configStorePath", json::getString)),
            setting(json, "snapshotThresholdEntries", json::getLong),
            setting(json, "raftElectionTimeoutMinMs", json::getLong),
            setting(json, "raftElectionTimeoutMaxMs", json::getLong),
            setting(json, "raftCommitTimeoutMs", json::getLong),
            setting(json, "brokerHeartbeatTimeoutMs", json::getLong),
            setting(json, "adminPort", json::getInteger),
            setting(json, "adminHost", json::getString),
            RemotingLimits.from(json),
            setting(json, "maxConnections", json::getInteger),
            setting(json, "shutdownGraceMs", json::getLong));
    }

    /** This node's controller-protocol peer entry. */
    public ControllerPeer self() {
        return peerById(peers, selfId);
    }

    /** This node's Raft peer entry. */
    public ControllerPeer selfRaft() {
        return peerById(raftPeers, selfId);
    }

    /** The controller-protocol address of peer {@code id}, or null for an unknown id. */
    public String controllerAddressOf(String id) {
        return peers.stream().filter(peer -> peer.id().equals(id)).map(ControllerPeer::address).findFirst()
            .orElse(null);
    }

    /** RocketMQ's peers text of CONTROLLER_GET_METADATA_INFO: {@code n0:127.0.0.1:9878;n1:...;}. */
    public String peersText() {
        return peers.stream().map(peer -> peer.id() + ":" + peer.address() + ";").collect(Collectors.joining());
    }

    static String expandHome(String path) {
        return path.startsWith("~/") ? System.getProperty("user.home") + path.substring(1) : path;
    }

    private static ControllerPeer peerById(List<ControllerPeer> list, String id) {
        return list.stream().filter(peer -> peer.id().equals(id)).findFirst()
            .orElseThrow(() -> new IllegalStateException("no peer " + id));
    }

    private static List<ControllerPeer> derivedRaftPeers(List<ControllerPeer> peers) {
        List<ControllerPeer> raftPeers = new ArrayList<>();
        for (ControllerPeer peer : peers) {
            int raftPort = peer.port() + RAFT_PORT_OFFSET;
            if (raftPort > 65535) {
                throw new IllegalArgumentException("invalid controllerDLegerPeers: port " + peer.port() + " of "
                    + peer.id() + " + " + RAFT_PORT_OFFSET + " is no port; set controllerRaftPeers");
            }
            raftPeers.add(new ControllerPeer(peer.id(), peer.host(), raftPort));
        }
        return raftPeers;
    }

    private static Set<String> blackList(String text) {
        Set<String> keys = new TreeSet<>(ALWAYS_BLACK_LISTED);
        Arrays.stream(text.split(";")).map(String::trim).filter(key -> !key.isEmpty()).forEach(keys::add);
        return keys;
    }

    private static Set<String> ids(List<ControllerPeer> list) {
        return list.stream().map(ControllerPeer::id).collect(Collectors.toCollection(TreeSet::new));
    }

    /** A key's value; a missing key or a value of the wrong type is refused naming the key (not an NPE). */
    private static <T> T setting(JsonObject json, String key, Function<String, T> getter) {
        T value;
        try {
            value = getter.apply(key);
        } catch (ClassCastException e) {
            throw new IllegalArgumentException("invalid " + key + ": " + json.getValue(key) + " has the wrong type");
        }
        if (value == null) {
            throw new IllegalArgumentException("missing setting " + key);
        }
        return value;
    }

    private static void requireText(String value, String setting) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("invalid " + setting + ": '" + value + "' (must not be blank)");
        }
    }

    private static void require(boolean holds, String setting, long value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }
}
