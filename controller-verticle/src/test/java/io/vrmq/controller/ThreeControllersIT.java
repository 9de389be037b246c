package io.vrmq.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A three-node controller group in one JVM, each node with its own store: one leader that every node names, followers
 * that refuse state requests, a leader failover that keeps the state and stays writable, a stopped node that rejoins
 * from its own store, and a node that restarts from its snapshot.
 */
@ExtendWith(VertxExtension.class)
class ThreeControllersIT {
    private static final int NODE_COUNT = 3;

    /**
     * Every node names the same leader over 1005 and followers answer 2007; the leader stops; the two left elect a new
     * leader that still knows the broker set and accepts a write; the old leader restarts from its store and catches
     * up with the write it missed.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void leaderFailoverKeepsStateAndARestartedNodeCatchesUp(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        List<JsonObject> configs = TestControllers.group(dir, NODE_COUNT);
        RemotingClient admin = new RemotingClient(vertx, RemotingLimits.defaults());
        WebClient web = WebClient.create(vertx);
        List<TestControllers.Node> nodes = new ArrayList<>();
        startAll(vertx, configs, nodes)
            .compose(started -> awaitLeader(vertx, nodes))
            .compose(leader -> everyNodeNamesTheLeader(admin, nodes, leader).map(leader))
            .compose(leader -> TestBroker.start(vertx, "broker-a").compose(broker ->
                followersRefuse(broker, nodes, leader)
                    .compose(refused -> broker.applyBrokerId(leader.address(), 1, broker.checkCode(1)))
                    .compose(applied -> {
                        assertEquals(ResponseCode.SUCCESS, applied.code(), applied.toString());
                        return broker.register(leader.address(), 1);
                    })
                    .compose(registered -> broker.heartbeatAndWait(leader.address(), 1, 0, 0))
                    .compose(beat -> broker.electMaster(leader.address(), 1))
                    .compose(elected -> {
                        assertEquals(ResponseCode.SUCCESS, elected.code(), elected.toString());
                        return leader.stop();
                    })
                    .compose(stopped -> {
                        nodes.remove(leader);
                        return awaitLeader(vertx, nodes);
                    })
                    .compose(newLeader -> broker.replicaInfo(newLeader.address())
                        .compose(info -> {
                            assertEquals(ResponseCode.SUCCESS, info.code(), info.toString());
                            assertEquals("1", info.ext("masterBrokerId"), "the new leader knows the master");
                            assertEquals("1", info.ext("masterEpoch"));
                            return TestBroker.start(vertx, "broker-a");
                        })
                        .compose(second -> second.applyBrokerId(newLeader.address(), 2, second.checkCode(2))))
                    .compose(applied -> {
                        assertEquals(ResponseCode.SUCCESS, applied.code(), "the group stays writable: " + applied);
                        return TestControllers.start(vertx, leader.config());
                    })
                    .compose(restarted -> Eventually.until(vertx, () -> groups(web, restarted),
                        groups -> groups.size() == 1 && groups.getJsonObject(0).getJsonArray("replicas").size() == 2,
                        "the restarted node has the replica registered while it was down"))))
            .onComplete(test.succeedingThenComplete());
    }

    /**
     * With a snapshot every two entries, a follower writes snapshots; stopped and started again it loads the newest
     * one and still knows every broker set.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRestartedNodeStartsFromItsSnapshot(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        List<JsonObject> configs = TestControllers.group(dir, NODE_COUNT).stream()
            .map(config -> config.put("snapshotThresholdEntries", 2L)).toList();
        WebClient web = WebClient.create(vertx);
        List<TestControllers.Node> nodes = new ArrayList<>();
        int setCount = 5;
        startAll(vertx, configs, nodes)
            .compose(started -> awaitLeader(vertx, nodes))
            .compose(leader -> applyFirstIds(vertx, leader, setCount).map(leader))
            .compose(leader -> {
                TestControllers.Node follower = nodes.stream().filter(node -> node != leader).findFirst()
                    .orElseThrow();
                return Eventually.until(vertx, () -> raft(web, follower),
                        raft -> raft.getLong("snapshotIndex") > 0 && raft.getLong("appliedIndex")
                            >= raft.getLong("commitIndex") && raft.getLong("commitIndex") > setCount,
                        "the follower wrote a snapshot and applied everything")
                    .compose(raft -> follower.stop())
                    .compose(stopped -> TestControllers.start(vertx, follower.config()));
            })
            .compose(restarted -> raft(web, restarted)
                .compose(raft -> {
                    assertTrue(raft.getLong("loadedSnapshotIndex") > 0, "started from a snapshot: " + raft);
                    return Eventually.until(vertx, () -> groups(web, restarted), groups -> groups.size() == setCount,
                        "every broker set known after the restart");
                }))
            .onComplete(test.succeedingThenComplete());
    }

    private static Future<Void> startAll(Vertx vertx, List<JsonObject> configs, List<TestControllers.Node> nodes) {
        return Future.all(configs.stream().map(config -> TestControllers.start(vertx, config)
            .onSuccess(nodes::add)).toList()).mapEmpty();
    }

    /** Waits until exactly one of {@code nodes} is the ready leader. */
    private static Future<TestControllers.Node> awaitLeader(Vertx vertx, List<TestControllers.Node> nodes) {
        return Eventually.until(vertx,
                () -> Future.succeededFuture(nodes.stream().filter(TestControllers.Node::isLeaderReady).toList()),
                leaders -> leaders.size() == 1, "one ready leader among " + nodes.size())
            .map(leaders -> leaders.get(0));
    }

    private static Future<Void> everyNodeNamesTheLeader(RemotingClient admin, List<TestControllers.Node> nodes,
                                                        TestControllers.Node leader) {
        return Future.all(nodes.stream().map(node -> admin.invoke(node.address(),
            RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO)).map(metadata -> {
                assertEquals(ResponseCode.SUCCESS, metadata.code());
                assertEquals(leader.selfId(), metadata.ext("controllerLeaderId"), "node " + node.selfId());
                assertEquals(leader.address(), metadata.ext("controllerLeaderAddress"));
                assertEquals(Boolean.toString(node == leader), metadata.ext("isLeader"));
                assertEquals("test-group", metadata.ext("group"));
                assertEquals(3, metadata.ext("peers").split(";").length, metadata.ext("peers"));
                return null;
            })).toList()).mapEmpty();
    }

    private static Future<Void> followersRefuse(TestBroker broker, List<TestControllers.Node> nodes,
                                                TestControllers.Node leader) {
        return Future.all(nodes.stream().filter(node -> node != leader).map(follower ->
            broker.applyBrokerId(follower.address(), 1, broker.checkCode(1)).compose(apply -> {
                assertEquals(ResponseCode.CONTROLLER_NOT_LEADER, apply.code(), apply.toString());
                return broker.replicaInfo(follower.address());
            }).map(info -> {
                assertEquals(ResponseCode.CONTROLLER_NOT_LEADER, info.code(), info.toString());
                return null;
            })).toList()).mapEmpty();
    }

    /** Id 1 in {@code count} broker sets, one after the other: one log entry each. */
    private static Future<Void> applyFirstIds(Vertx vertx, TestControllers.Node leader, int count) {
        Future<Void> chain = Future.succeededFuture();
        for (int i = 0; i < count; i++) {
            String brokerName = "broker-" + i;
            chain = chain.compose(previous -> TestBroker.start(vertx, brokerName)
                .compose(broker -> broker.applyBrokerId(leader.address(), 1, broker.checkCode(1)))
                .map(applied -> {
                    assertEquals(ResponseCode.SUCCESS, applied.code(), applied.toString());
                    return null;
                }));
        }
        return chain;
    }

    private static Future<JsonArray> groups(WebClient web, TestControllers.Node node) {
        return web.get(node.adminPort(), TestControllers.HOST, "/api/v1/controller/groups").send()
            .map(response -> response.bodyAsJsonObject().getJsonArray("groups"));
    }

    private static Future<JsonObject> raft(WebClient web, TestControllers.Node node) {
        return web.get(node.adminPort(), TestControllers.HOST, "/api/v1/controller").send()
            .map(response -> response.bodyAsJsonObject().getJsonObject("raft"));
    }
}
