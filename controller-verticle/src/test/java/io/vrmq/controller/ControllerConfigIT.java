package io.vrmq.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
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

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** UPDATE_CONTROLLER_CONFIG (1009) and GET_CONTROLLER_CONFIG (1010) on one node, and updates surviving a restart. */
@ExtendWith(VertxExtension.class)
class ControllerConfigIT {

    /**
     * Black-listed and unknown keys are refused with NO_PERMISSION and a bad value with SYSTEM_ERROR, changing
     * nothing; a live key applies at once, a restart-only key is kept; after a restart both are in force.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void updatesAreCheckedAppliedAndPersisted(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        JsonObject config = TestControllers.group(dir, 1).get(0);
        RemotingClient client = new RemotingClient(vertx, RemotingLimits.defaults());
        TestControllers.start(vertx, config)
            .compose(node -> update(client, node, "configStorePath=/etc/passwd")
                .compose(refused -> {
                    assertEquals(ResponseCode.NO_PERMISSION, refused.code(), refused.toString());
                    return update(client, node, "controllerStorePath=/tmp/elsewhere");
                })
                .compose(refused -> {
                    assertEquals(ResponseCode.NO_PERMISSION, refused.code(), refused.toString());
                    return update(client, node, "noSuchKey=1");
                })
                .compose(refused -> {
                    assertEquals(ResponseCode.NO_PERMISSION, refused.code(), refused.toString());
                    return update(client, node, "scanInactiveMasterInterval=soon");
                })
                .compose(refused -> {
                    assertEquals(ResponseCode.SYSTEM_ERROR, refused.code(), refused.toString());
                    return update(client, node, "scanInactiveMasterInterval=2000\nnotifyBrokerRoleChanged=false\n"
                        + "snapshotThresholdEntries=77");
                })
                .compose(updated -> {
                    assertEquals(ResponseCode.SUCCESS, updated.code(), updated.toString());
                    return settings(client, node);
                })
                .compose(running -> {
                    assertEquals("2000", running.getProperty("scanInactiveMasterInterval"), "live at once");
                    assertEquals("false", running.getProperty("notifyBrokerRoleChanged"));
                    assertEquals("10000", running.getProperty("snapshotThresholdEntries"), "at the next start");
                    assertEquals(config.getString("configStorePath"), running.getProperty("configStorePath"));
                    return node.stop();
                }))
            .compose(stopped -> TestControllers.start(vertx, config))
            .compose(restarted -> settings(client, restarted))
            .onComplete(test.succeeding(running -> test.verify(() -> {
                assertEquals("2000", running.getProperty("scanInactiveMasterInterval"));
                assertEquals("false", running.getProperty("notifyBrokerRoleChanged"));
                assertEquals("77", running.getProperty("snapshotThresholdEntries"));
                test.completeNow();
            })));
    }

    private static Future<RemotingCommand> update(RemotingClient client, TestControllers.Node node, String text) {
        return client.invoke(node.address(), RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG, null,
            Buffer.buffer(text)));
    }

    private static Future<Properties> settings(RemotingClient client, TestControllers.Node node) {
        return client.invoke(node.address(), RemotingCommand.request(RequestCode.GET_CONTROLLER_CONFIG))
            .map(response -> {
                assertEquals(ResponseCode.SUCCESS, response.code());
                Properties properties = new Properties();
                try {
                    properties.load(new StringReader(response.body().toString()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return properties;
            });
    }
}
