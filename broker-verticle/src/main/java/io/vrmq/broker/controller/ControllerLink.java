package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The broker's calls to the controllers: which controllers there are (controllerAddr, or its DNS A records), which
 * one leads (GET_METADATA_INFO, 1005), requests to the leader, and heartbeats to all. Better than RocketMQ's broker,
 * which re-reads the leader only every syncControllerMetadataPeriod: a call that finds no leader there (a failed
 * connection or CONTROLLER_NOT_LEADER) asks again at once and retries once.
 * Confined to the broker's context.
 */
final class ControllerLink {
    private static final Logger log = LoggerFactory.getLogger(ControllerLink.class);

    private final Vertx vertx;
    private final RemotingClient client;
    private final ControllerModeConfig config;
    private final long requestTimeoutMs;
    private List<String> controllers;
    private String leaderAddr;

    ControllerLink(Vertx vertx, RemotingClient client, ControllerModeConfig config, long requestTimeoutMs) {
        this.vertx = vertx;
        this.client = client;
        this.config = config;
        this.requestTimeoutMs = requestTimeoutMs;
        this.controllers = List.copyOf(config.controllerAddrs());
    }

    /** The leader as last learned, or null. */
    String leaderAddr() {
        return leaderAddr;
    }

    List<String> controllers() {
        return controllers;
    }

    /** With fetchControllerAddrByDnsLookup: the controllers are the A records of controllerAddr's domain. */
    Future<Void> refreshControllers() {
        if (!config.fetchControllerAddrByDnsLookup()) {
            return Future.succeededFuture();
        }
        String domainAndPort = config.controllerAddrs().get(0);
        int colon = domainAndPort.lastIndexOf(':');
        String domain = domainAndPort.substring(0, colon);
        String port = domainAndPort.substring(colon + 1);
        return vertx.executeBlocking(() -> Arrays.stream(InetAddress.getAllByName(domain))
                .map(address -> address.getHostAddress() + ":" + port).toList(), false)
            .onSuccess(found -> {
                if (!found.isEmpty() && !found.equals(controllers)) {
                    log.info("controllers of {}: {}", domain, found);
                    controllers = found;
                }
            })
            .recover(error -> {
                log.warn("cannot look up controllers at {}: {}", domain, error instanceof UnknownHostException
                    ? "unknown host" : error.getMessage());
                return Future.succeededFuture();
            })
            .mapEmpty();
    }

    /** Asks each controller in turn who leads; fails when none names a leader. */
    Future<String> refreshLeader() {
        return askForLeader(new ArrayList<>(controllers), 0);
    }

    private Future<String> askForLeader(List<String> candidates, int index) {
        if (index >= candidates.size()) {
            return Future.failedFuture(new IllegalStateException("no controller of " + candidates
                + " names a leader"));
        }
        String controller = candidates.get(index);
        return client.invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO),
                requestTimeoutMs)
            .compose(response -> {
                String leader = response.code() == ResponseCode.SUCCESS
                    ? response.header().optionalString("controllerLeaderAddress") : null;
                if (leader == null || leader.isBlank()) {
                    return Future.failedFuture(new IllegalStateException(controller + " knows no leader"));
                }
                if (!leader.equals(leaderAddr)) {
                    log.info("controller leader is {} (asked {})", leader, controller);
                }
                leaderAddr = leader;
                return Future.succeededFuture(leader);
            })
            .recover(error -> askForLeader(candidates, index + 1));
    }

    /**
     * Sends to the leader; when there is none known, it cannot be reached or it answers CONTROLLER_NOT_LEADER, asks
     * for the leader again and retries once. Other answers, errors included, are the caller's.
     */
    Future<RemotingCommand> callLeader(int code, Map<String, String> header, io.vertx.core.buffer.Buffer body) {
        Future<String> leader = leaderAddr != null ? Future.succeededFuture(leaderAddr) : refreshLeader();
        return leader.compose(addr -> invoke(addr, code, header, body))
            .compose(response -> response.code() == ResponseCode.CONTROLLER_NOT_LEADER
                ? retryOnNewLeader(code, header, body) : Future.succeededFuture(response),
                error -> retryOnNewLeader(code, header, body));
    }

    private Future<RemotingCommand> retryOnNewLeader(int code, Map<String, String> header,
                                                     io.vertx.core.buffer.Buffer body) {
        leaderAddr = null;
        return refreshLeader().compose(addr -> invoke(addr, code, header, body));
    }

    private Future<RemotingCommand> invoke(String addr, int code, Map<String, String> header,
                                           io.vertx.core.buffer.Buffer body) {
        return client.invoke(addr, RemotingCommand.request(code, header, body), requestTimeoutMs);
    }

    /** Oneway BROKER_HEARTBEAT to every controller (each keeps its own view of which brokers live). */
    void heartbeatAll(Map<String, String> header) {
        for (String controller : controllers) {
            client.invokeOneway(controller, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, header, null))
                .onFailure(error -> log.debug("heartbeat to controller {} failed: {}", controller,
                    error.getMessage()));
        }
    }
}
