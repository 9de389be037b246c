package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vrmq.broker.recall.RecallHandle;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Master/slave replication between two real brokers on loopback, driven by raw remoting requests. */
class MasterSlaveIT {
    private static final int MESSAGE_BYTES = 100 * 1024;
    /** 4 MiB test segments: 100 messages of 100 KiB fill several, so fillers and rolls are replicated too. */
    private static final int MESSAGES = 100;

    @Test
    void slaveCopiesTheCommitLogAndServesReadsOnceTheMasterIsGone(@TempDir Path root) {
        try (HaTestBrokers brokers = new HaTestBrokers(root)) {
            brokers.startMaster("ASYNC_MASTER");
            brokers.startSlave(true);
            brokers.createTopic(brokers.masterAddr(), 1);
            brokers.createTopic(brokers.slaveAddr(), 1);
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                byte[] body = body(i);
                assertEquals(ResponseCode.SUCCESS, brokers.send(brokers.masterAddr(), 0, body).code());
                sent.add(body);
            }
            brokers.awaitSlaveCaughtUp();
            long masterEnd = brokers.commitLogMaxOffset(brokers.masterAddr());
            brokers.await(() -> brokers.replicationView(true).getJsonArray("slaves").getJsonObject(0)
                .getLong("ackOffset") == masterEnd, "the master's admin view never showed the slave's ack");
            JsonObject slaveView = brokers.replicationView(false);
            assertEquals("SLAVE", slaveView.getString("role"));
            assertTrue(slaveView.getBoolean("connected"));
            assertEquals(masterEnd, slaveView.getLong("replicatedOffset"));

            RemotingCommand whileMasterLives = brokers.pull(brokers.slaveAddr(), 0, 0);
            assertEquals(ResponseCode.SUCCESS, whileMasterLives.code());
            assertEquals("0", whileMasterLives.header().optionalString("suggestWhichBrokerId"),
                "a slave sends consumers back to a live master");

            brokers.stopMaster();
            brokers.await(() -> "1".equals(brokers.pull(brokers.slaveAddr(), 0, 0).header()
                .optionalString("suggestWhichBrokerId")), "the slave never kept consumers after the master stopped");
            List<byte[]> read = new ArrayList<>();
            while (read.size() < MESSAGES) {
                RemotingCommand pulled = brokers.pull(brokers.slaveAddr(), 0, read.size());
                assertEquals(ResponseCode.SUCCESS, pulled.code(), () -> "pull at " + read.size() + ": "
                    + pulled.remark());
                read.addAll(HaTestBrokers.bodies(pulled.body()));
            }
            for (int i = 0; i < MESSAGES; i++) {
                assertArrayEquals(sent.get(i), read.get(i), "message " + i);
            }
        }
    }

    @Test
    void slaveRefusesSendsAndUnallowedReads(@TempDir Path root) {
        try (HaTestBrokers brokers = new HaTestBrokers(root)) {
            brokers.startMaster("ASYNC_MASTER");
            brokers.startSlave(false);
            brokers.createTopic(brokers.slaveAddr(), 1);
            RemotingCommand send = brokers.send(brokers.slaveAddr(), 0, body(1));
            assertEquals(ResponseCode.SERVICE_NOT_AVAILABLE, send.code());
            assertTrue(send.remark().contains("slave"), send.remark());
            assertEquals(ResponseCode.SYSTEM_BUSY, brokers.pull(brokers.slaveAddr(), 0, 0).code());
        }
    }

    @Test
    void syncMasterAnswersOnlyOnceTheSlaveHasTheMessage(@TempDir Path root) {
        try (HaTestBrokers brokers = new HaTestBrokers(root)) {
            brokers.startMaster("SYNC_MASTER");
            brokers.createTopic(brokers.masterAddr(), 1);
            assertEquals(ResponseCode.SLAVE_NOT_AVAILABLE, brokers.send(brokers.masterAddr(), 0, body(1)).code(),
                "no slave yet");

            brokers.startSlave(true);
            brokers.awaitSlaveCaughtUp();
            for (int i = 0; i < 20; i++) {
                RemotingCommand sent = brokers.send(brokers.masterAddr(), 0, body(i));
                assertEquals(ResponseCode.SUCCESS, sent.code(), sent::remark);
                long endOffset = brokers.commitLogMaxOffset(brokers.masterAddr());
                assertTrue(brokers.commitLogMaxOffset(brokers.slaveAddr()) >= endOffset,
                    "a SYNC_MASTER answered before its slave had message " + i);
            }

            brokers.stopSlave();
            brokers.await(() -> brokers.send(brokers.masterAddr(), 0, body(2)).code()
                == ResponseCode.SLAVE_NOT_AVAILABLE, "sends still acknowledged by a stopped slave");
        }
    }

    /**
     * Many SYNC_MASTER sends in flight at once, of mixed sizes across segment rolls: transfers of several appends at
     * a time, some ending inside a segment and some at its end, and the slave must still get every byte in order,
     * each send answered only once the slave has it.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void syncMasterWithManySendsInFlightReplicatesEveryByte(@TempDir Path root) {
        try (HaTestBrokers brokers = new HaTestBrokers(root)) {
            brokers.startMaster("SYNC_MASTER");
            brokers.createTopic(brokers.masterAddr(), 1);
            brokers.startSlave(true);
            brokers.createTopic(brokers.slaveAddr(), 1);
            brokers.awaitSlaveCaughtUp();
            int inFlight = 16;
            int messages = 480;
            Map<Integer, byte[]> sent = new HashMap<>();
            for (int first = 0; first < messages; first += inFlight) {
                List<Future<RemotingCommand>> answers = new ArrayList<>();
                for (int i = first; i < first + inFlight; i++) {
                    byte[] body = mixedBody(i);
                    sent.put(i, body);
                    answers.add(brokers.sendAsync(brokers.masterAddr(), 0, body));
                }
                long slaveBefore = brokers.commitLogMaxOffset(brokers.slaveAddr());
                Future.all(answers).await();
                for (Future<RemotingCommand> answer : answers) {
                    assertEquals(ResponseCode.SUCCESS, answer.result().code(), answer.result()::remark);
                }
                long masterEnd = brokers.commitLogMaxOffset(brokers.masterAddr());
                assertTrue(brokers.commitLogMaxOffset(brokers.slaveAddr()) >= masterEnd,
                    "a SYNC_MASTER answered sends from " + first + " before its slave had them (slave was at "
                        + slaveBefore + ")");
            }
            assertEquals(brokers.commitLogMaxOffset(brokers.masterAddr()),
                brokers.commitLogMaxOffset(brokers.slaveAddr()));
            Map<Integer, byte[]> read = new HashMap<>();
            while (read.size() < messages) {
                RemotingCommand pulled = brokers.pull(brokers.slaveAddr(), 0, read.size());
                assertEquals(ResponseCode.SUCCESS, pulled.code(), () -> "pull at " + read.size() + ": "
                    + pulled.remark());
                for (byte[] body : HaTestBrokers.bodies(pulled.body())) {
                    read.put((body[0] & 0xff) | (body[1] & 0xff) << 8, body);
                }
            }
            for (int i = 0; i < messages; i++) {
                assertArrayEquals(sent.get(i), read.get(i), "message " + i);
            }
        }
    }

    /**
     * RECALL_MESSAGE on a SYNC_MASTER waits for the slave as a send does, and answers SUCCESS without one (RocketMQ
     * maps SLAVE_NOT_AVAILABLE and FLUSH_SLAVE_TIMEOUT of a recall to SUCCESS). A recall needs no held message.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void syncMasterRecallWaitsForTheSlaveAndSucceedsWithoutOne(@TempDir Path root) {
        try (HaTestBrokers brokers = new HaTestBrokers(root)) {
            brokers.startMaster("SYNC_MASTER", new JsonObject().put("recallMessageEnable", true));
            brokers.createTopic(brokers.masterAddr(), 1);
            RemotingCommand alone = recall(brokers, "NoSlave");
            assertEquals(ResponseCode.SUCCESS, alone.code(), alone::remark);

            brokers.startSlave(true);
            brokers.awaitSlaveCaughtUp();
            for (int i = 0; i < 10; i++) {
                RemotingCommand recalled = recall(brokers, "M" + i);
                assertEquals(ResponseCode.SUCCESS, recalled.code(), recalled::remark);
                long endOffset = brokers.commitLogMaxOffset(brokers.masterAddr());
                assertTrue(brokers.commitLogMaxOffset(brokers.slaveAddr()) >= endOffset,
                    "a SYNC_MASTER answered recall " + i + " before its slave had the delete record");
            }
        }
    }

    private static RemotingCommand recall(HaTestBrokers brokers, String messageId) {
        String timestamp = Long.toString(System.currentTimeMillis() + 60_000);
        return brokers.call(brokers.masterAddr(), RequestCode.RECALL_MESSAGE, Map.of("producerGroup", "PG", "topic",
            HaTestBrokers.TOPIC, "recallHandle", RecallHandle.build(HaTestBrokers.TOPIC, "broker-a", timestamp,
                messageId)), null);
    }

    @Test
    void restartedSlaveContinuesWhereItStopped(@TempDir Path root) {
        try (HaTestBrokers brokers = new HaTestBrokers(root)) {
            brokers.startMaster("ASYNC_MASTER");
            brokers.startSlave(true);
            brokers.createTopic(brokers.masterAddr(), 1);
            for (int i = 0; i < MESSAGES / 2; i++) {
                brokers.send(brokers.masterAddr(), 0, body(i));
            }
            brokers.awaitSlaveCaughtUp();
            brokers.stopSlave();
            for (int i = MESSAGES / 2; i < MESSAGES; i++) {
                brokers.send(brokers.masterAddr(), 0, body(i));
            }
            brokers.startSlave(true);
            brokers.awaitSlaveCaughtUp();
            assertEquals(brokers.commitLogMaxOffset(brokers.masterAddr()),
                brokers.commitLogMaxOffset(brokers.slaveAddr()));
        }
    }

    /** A distinct body of 1 to 40 KiB: 480 of them fill more than one 4 MiB test segment. */
    private static byte[] mixedBody(int index) {
        byte[] body = new byte[1024 + (index * 7919) % (39 * 1024)];
        Arrays.fill(body, (byte) ('A' + index % 26));
        body[0] = (byte) index;
        body[1] = (byte) (index >> 8);
        return body;
    }

    /** A distinct body per message: its index, then filler. */
    private static byte[] body(int index) {
        byte[] body = new byte[MESSAGE_BYTES];
        Arrays.fill(body, (byte) ('a' + index % 26));
        body[0] = (byte) index;
        body[1] = (byte) (index >> 8);
        return body;
    }
}
