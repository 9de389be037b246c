package io.vrmq.controller;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One controller node as {@code controllerDLegerPeers} (and {@code controllerRaftPeers}) name it: {@code n0-host:port}.
 * Immutable; {@link #parseList} is stateless.
 */
public record ControllerPeer(String id, String host, int port) {

    /** "host:port". */
    public String address() {
        return host + ":" + port;
    }

    /**
     * Parses {@code "n0-127.0.0.1:9878;n1-127.0.0.1:9879"} (RocketMQ's format; blanks and empty entries ignored).
     *
     * @throws IllegalArgumentException naming {@code key} and the bad entry
     */
    public static List<ControllerPeer> parseList(String text, String key) {
        List<ControllerPeer> peers = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (String entry : text.split(";")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            ControllerPeer peer = parse(trimmed, key);
            if (!ids.add(peer.id())) {
                throw new IllegalArgumentException("invalid " + key + ": peer id " + peer.id() + " appears twice");
            }
            peers.add(peer);
        }
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("invalid " + key + ": '" + text + "' names no peer (expected "
                + "n0-host:port;n1-host:port...)");
        }
        return List.copyOf(peers);
    }

    private static ControllerPeer parse(String entry, String key) {
        int dash = entry.indexOf('-');
        int colon = entry.lastIndexOf(':');
        if (dash <= 0 || colon <= dash + 1 || colon == entry.length() - 1) {
            throw new IllegalArgumentException("invalid " + key + ": '" + entry + "' is not id-host:port");
        }
        int port;
        try {
            port = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid " + key + ": '" + entry + "' has no numeric port");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("invalid " + key + ": port " + port + " of '" + entry + "'");
        }
        return new ControllerPeer(entry.substring(0, dash), entry.substring(dash + 1, colon), port);
    }
}
