package io.vrmq.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import io.vrmq.remoting.body.controller.ElectMasterResponseBody;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One controller node, brokers played by {@link TestBroker} with RocketMQ 5.5.0's requests: the whole life of a broker
 * set from the first id to a failover.
 */
@ExtendWith(VertxExtension.class)
class SingleControllerIT {
    private static final String BROKER_NAME = "broker-a";

    /**
     * Two brokers apply ids (the first retries idempotently, a conflicting apply is refused), register and heartbeat;
     * the first election makes the requester master; the master grows its SyncStateSet and stale epochs are refused;
     * the master's connection closes and the other broker is elected and told so with NOTIFY_BROKER_ROLE_CHANGED.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void brokerSetLifecycleFromFirstIdToFailover(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        TestControllers.start(vertx, TestControllers.group(dir, 1).get(0))
            .compose(node -> Eventually.until(vertx, () -> Future.succeededFuture(node),
                TestControllers.Node::isLeaderReady, "the single node leads"))
            .compose(node -> Future.all(TestBroker.start(vertx, BROKER_NAME), TestBroker.start(vertx, BROKER_NAME))
                .compose(brokers -> lifecycle(vertx, node.address(), brokers.resultAt(0), brokers.resultAt(1))
                    .compose(done -> adminShowsTheFailover(WebClient.create(vertx), node, brokers.resultAt(1)))))
            .onComplete(test.succeedingThenComplete());
    }

    /** The admin API and the metrics tell the same story: broker 2 master, two elections, one notice. */
    private Future<Void> adminShowsTheFailover(WebClient web, TestControllers.Node node, TestBroker second) {
        return web.get(node.adminPort(), TestControllers.HOST, "/api/v1/controller/groups").send()
            .compose(groups -> {
                JsonObject group = groups.bodyAsJsonObject().getJsonArray("groups").getJsonObject(0);
                assertEquals(BROKER_NAME, group.getString("brokerName"));
                assertEquals(2, group.getInteger("masterBrokerId"));
                assertEquals(second.address(), group.getString("masterAddress"));
                assertEquals(2, group.getJsonArray("replicas").size());
                JsonObject replica = group.getJsonArray("replicas").getJsonObject(1);
                assertEquals(true, replica.getBoolean("alive"));
                assertEquals(0, replica.getLong("lagBytes"));
                return web.get(node.adminPort(), TestControllers.HOST, "/metrics").send();
            })
            .map(metrics -> {
                String text = metrics.bodyAsString();
                assertTrue(text.contains("mq_controller_elections_total{broker_set=\"broker-a\","
                    + "cluster=\"test-cluster\",result=\"new_master_elected\"} 2.0"), text);
                assertTrue(text.contains("mq_controller_role_change_notices_total{broker_set=\"broker-a\"}"), text);
                assertTrue(text.contains("mq_controller_sync_state_set_size{broker_set=\"broker-a\"} 1.0"), text);
                assertTrue(text.contains("mq_controller_is_leader 1.0"), text);
                return null;
            });
    }

    private Future<Void> lifecycle(Vertx vertx, String controller, TestBroker first, TestBroker second) {
        String firstCode = first.checkCode(1_000);
        return first.nextBrokerId(controller)
            .compose(next -> {
                assertEquals(ResponseCode.SUCCESS, next.code(), next.toString());
                assertEquals("1", next.ext("nextBrokerId"));
                return first.applyBrokerId(controller, 1, firstCode);
            })
            .compose(applied -> {
                assertEquals(ResponseCode.SUCCESS, applied.code(), applied.toString());
                assertEquals(BROKER_NAME, applied.ext("brokerName"));
                return first.applyBrokerId(controller, 1, firstCode);
            })
            .compose(retried -> {
                assertEquals(ResponseCode.SUCCESS, retried.code(), "a retry with the same check code is accepted");
                return second.applyBrokerId(controller, 1, second.checkCode(2_000));
            })
            .compose(conflict -> {
                assertEquals(ResponseCode.CONTROLLER_BROKER_ID_INVALID, conflict.code(), conflict.toString());
                return first.register(controller, 1);
            })
            .compose(registered -> {
                assertEquals(ResponseCode.SUCCESS, registered.code(), registered.toString());
                assertNull(registered.ext("masterBrokerId"), "no master yet");
                return first.heartbeatAndWait(controller, 1, 0, 0);
            })
            .compose(beat -> first.electMaster(controller, 1))
            .compose(elected -> {
                assertEquals(ResponseCode.SUCCESS, elected.code(), elected.toString());
                assertEquals("1", elected.ext("masterBrokerId"));
                assertEquals(first.address(), elected.ext("masterAddress"));
                assertEquals("1", elected.ext("masterEpoch"));
                assertEquals("1", elected.ext("syncStateSetEpoch"));
                ElectMasterResponseBody body = TestBroker.JSON.decode(elected.body(), ElectMasterResponseBody.class);
                assertEquals(Set.of(1L), body.syncStateSet());
                return second.nextBrokerId(controller);
            })
            .compose(next -> {
                assertEquals("2", next.ext("nextBrokerId"));
                return second.applyBrokerId(controller, 2, second.checkCode(2_000));
            })
            .compose(applied -> {
                assertEquals(ResponseCode.SUCCESS, applied.code(), applied.toString());
                return second.register(controller, 2);
            })
            .compose(registered -> {
                assertEquals(ResponseCode.SUCCESS, registered.code(), registered.toString());
                assertEquals("1", registered.ext("masterBrokerId"), "the live master is named");
                assertEquals(first.address(), registered.ext("masterAddress"));
                return second.heartbeatAndWait(controller, 2, 1, 0);
            })
            .compose(beat -> alterAndRefuseStale(controller, first))
            .compose(altered -> first.closeConnections())
            .compose(closed -> Eventually.until(vertx, () -> second.replicaInfo(controller),
                info -> "2".equals(info.ext("masterBrokerId")),
                "broker 2 elected after the master's connection closed"))
            .compose(info -> {
                assertEquals("2", info.ext("masterEpoch"));
                return Eventually.until(vertx, () -> Future.succeededFuture(second.notices()), list -> !list.isEmpty(),
                    "broker 2 told of its new role");
            })
            .map(notices -> {
                RemotingCommand notice = notices.get(0);
                assertEquals(RequestCode.NOTIFY_BROKER_ROLE_CHANGED, notice.code());
                assertEquals("2", notice.ext("masterBrokerId"));
                assertEquals(second.address(), notice.ext("masterAddress"));
                assertEquals("2", notice.ext("masterEpoch"));
                assertEquals("3", notice.ext("syncStateSetEpoch"));
                SyncStateSetBody body = TestBroker.JSON.decode(notice.body(), SyncStateSetBody.class);
                assertEquals(Set.of(2L), body.syncStateSet());
                assertEquals(3, body.syncStateSetEpoch());
                return null;
            });
    }

    /**
     * The edges: a heartbeat without brokerId (2005), an unknown code (3), mqadmin's GET_SYNC_STATE_DATA (1006) and
     * CLEAN_BROKER_DATA (1011) refusing a set that still has a master, then cleaning it with the living flag.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void adminRequestsAndBadInput(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        RemotingClient admin = new RemotingClient(vertx, RemotingLimits.defaults());
        TestControllers.start(vertx, TestControllers.group(dir, 1).get(0))
            .compose(node -> Eventually.until(vertx, () -> Future.succeededFuture(node),
                TestControllers.Node::isLeaderReady, "the single node leads"))
            .compose(node -> TestBroker.start(vertx, BROKER_NAME).compose(broker -> {
                String controller = node.address();
                return admin.invoke(controller, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT,
                        TestBroker.header("clusterName", TestBroker.CLUSTER, "brokerAddr", broker.address(),
                            "brokerName", BROKER_NAME), null))
                    .compose(noId -> {
                        assertEquals(ResponseCode.CONTROLLER_INVALID_REQUEST, noId.code(), noId.toString());
                        return admin.invoke(controller, RemotingCommand.request(4242));
                    })
                    .compose(unknown -> {
                        assertEquals(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, unknown.code());
                        return broker.applyBrokerId(controller, 1, broker.checkCode(1));
                    })
                    .compose(applied -> broker.heartbeatAndWait(controller, 1, 0, 0))
                    .compose(beat -> broker.electMaster(controller, 1))
                    .compose(elected -> admin.invoke(controller, RemotingCommand.request(
                        RequestCode.CONTROLLER_GET_SYNC_STATE_DATA, null,
                        Buffer.buffer("[\"" + BROKER_NAME + "\",\"unknown\"]"))))
                    .compose(data -> {
                        assertEquals(ResponseCode.SUCCESS, data.code(), data.toString());
                        JsonObject set = data.body().toJsonObject().getJsonObject("replicasInfoTable")
                            .getJsonObject(BROKER_NAME);
                        assertEquals(1, set.getInteger("masterBrokerId"));
                        assertEquals(broker.address(), set.getJsonArray("inSyncReplicas").getJsonObject(0)
                            .getString("brokerAddress"));
                        assertEquals(true, set.getJsonArray("inSyncReplicas").getJsonObject(0).getBoolean("alive"));
                        return admin.invoke(controller, clean(false));
                    })
                    .compose(refused -> {
                        assertEquals(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA, refused.code());
                        return admin.invoke(controller, clean(true));
                    })
                    .compose(cleaned -> {
                        assertEquals(ResponseCode.SUCCESS, cleaned.code(), cleaned.toString());
                        return broker.replicaInfo(controller);
                    })
                    .map(info -> {
                        assertEquals(ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST, info.code());
                        return null;
                    });
            }))
            .onComplete(test.succeedingThenComplete());
    }

    private static RemotingCommand clean(boolean isCleanLivingBroker) {
        return RemotingCommand.request(RequestCode.CLEAN_BROKER_DATA, TestBroker.header("clusterName",
            TestBroker.CLUSTER, "brokerName", BROKER_NAME, "isCleanLivingBroker", Boolean.toString(isCleanLivingBroker),
            "invokeTime", "1"), null);
    }

    /** {1} at set epoch 1 becomes {1, 2} at epoch 2; a proposal based on epoch 1 or master epoch 0 is then refused. */
    private Future<Void> alterAndRefuseStale(String controller, TestBroker master) {
        return master.alterSyncStateSet(controller, 1, 1, Set.of(1L, 2L), 1)
            .compose(altered -> {
                assertEquals(ResponseCode.SUCCESS, altered.code(), altered.toString());
                assertEquals("2", altered.ext("newSyncStateSetEpoch"));
                return master.alterSyncStateSet(controller, 1, 1, Set.of(1L), 1);
            })
            .compose(stale -> {
                assertEquals(ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH, stale.code(), stale.toString());
                return master.alterSyncStateSet(controller, 1, 0, Set.of(1L), 2);
            })
            .compose(staleMaster -> {
                assertEquals(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, staleMaster.code(), staleMaster.toString());
                return master.alterSyncStateSet(controller, 2, 1, Set.of(1L), 2);
            })
            .map(notMaster -> {
                assertEquals(ResponseCode.CONTROLLER_INVALID_MASTER, notMaster.code(), notMaster.toString());
                return null;
            });
    }
}
