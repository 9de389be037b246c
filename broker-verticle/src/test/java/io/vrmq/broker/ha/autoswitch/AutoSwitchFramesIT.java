package io.vrmq.broker.ha.autoswitch;

import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.store.AppendResult;
import io.vrmq.store.MessageStore;
import io.vrmq.store.epoch.EpochEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.vrmq.broker.ha.autoswitch.AutoSwitchNode.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wire format byte by byte: a raw socket plays the slave against our master, and the master against our slave,
 * reading and writing every field at the offsets RocketMQ 5.5.0's AutoSwitchHAConnection/AutoSwitchHAClient use.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AutoSwitchFramesIT {
    private static final int READ_TIMEOUT_MS = 10_000;
    private final List<AutoSwitchNode> nodes = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopAll() {
        nodes.forEach(AutoSwitchNode::close);
    }

    private AutoSwitchNode node(Path dir, AutoSwitchConfig config) {
        AutoSwitchNode node = AutoSwitchNode.start(dir, config, AutoSwitchNode.ha(3_000));
        nodes.add(node);
        return node;
    }

    @Test
    void aRawSlaveGetsTheHandshakeAndTransferFramesOfRocketMqsLayout(@TempDir Path dir) throws IOException {
        AutoSwitchNode master = node(dir, AutoSwitchNode.config(false, 1, 15_000));
        master.service.changeToMaster(1, 1, new SyncStateSetBody(Set.of(1L), 1)).await();
        master.appendMany(0, 60);
        long epochTwoStart = master.maxOffset();
        master.service.changeToMaster(1, 2, new SyncStateSetBody(Set.of(1L), 2)).await();
        master.appendMany(60, 100);
        long max = master.maxOffset();
        assertTrue(max > AutoSwitchNode.SEGMENT_BYTES * 2L);

        try (Socket socket = connect(master.haPort)) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            out.write(slaveHandshake((short) 0, (short) 0, 7L));   // 16 bytes
            assertEquals(1, in.readInt(), "HANDSHAKE state");
            assertEquals(2 * 12, in.readInt(), "bodySize = 12 x entries");
            assertEquals(max, in.readLong(), "masterMaxPhyOffset");
            assertEquals(2, in.readInt(), "lastEpoch");
            assertEquals(1, in.readInt());
            assertEquals(0, in.readLong());
            assertEquals(2, in.readInt());
            assertEquals(epochTwoStart, in.readLong());

            out.write(slaveTransfer(0));   // 12 bytes: an empty slave
            long expected = 0;
            while (expected < max) {
                assertEquals(2, in.readInt(), "TRANSFER state at " + expected);
                int bodySize = in.readInt();
                assertEquals(expected, in.readLong(), "offset");
                int epoch = in.readInt();
                long epochStart = in.readLong();
                long confirm = in.readLong();
                if (bodySize == 0) {
                    continue;   // a heartbeat
                }
                assertTrue(bodySize <= 4_096, "at most haTransferBatchSize");
                long end = expected + bodySize;
                assertEquals(expected / AutoSwitchNode.SEGMENT_BYTES, (end - 1) / AutoSwitchNode.SEGMENT_BYTES,
                    "never crosses a segment end");
                if (expected < epochTwoStart) {
                    assertEquals(1, epoch);
                    assertEquals(0, epochStart);
                    assertTrue(end <= epochTwoStart, "never crosses an epoch end");
                } else {
                    assertEquals(2, epoch);
                    assertEquals(epochTwoStart, epochStart);
                }
                assertTrue(confirm >= expected, "confirm offset: the master's max (allAck off)");
                byte[] body = new byte[bodySize];
                in.readFully(body);
                assertArrayEquals(bytes(master.store, expected, bodySize), body, "body at " + expected);
                expected = end;
            }
            out.write(slaveTransfer(max));

            // Idle: a heartbeat, a 36-byte TRANSFER header with no body, after haSendHeartbeatInterval.
            assertEquals(2, in.readInt());
            assertEquals(0, in.readInt(), "heartbeat body size");
            assertEquals(max, in.readLong());
            assertEquals(2, in.readInt());
            assertEquals(epochTwoStart, in.readLong());
            assertEquals(max, in.readLong(), "confirm offset");
            await(() -> master.service.status().toString().contains("brokerId=7"), "slave id from the handshake");
            await(() -> master.service.haRuntimeInfo().haConnectionInfo().get(0).slaveAckOffset() == max, "ack");

            out.write(new byte[] {0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0});   // state 9: not a frame
            assertClosed(in);
        }
    }

    @Test
    void aRawMasterDrivesOurSlaveByRocketMqsLayout(@TempDir Path sourceDir, @TempDir Path slaveDir)
            throws IOException {
        AutoSwitchNode source = node(sourceDir, AutoSwitchNode.config(false, 1, 15_000));   // only its bytes
        List<AppendResult> written = source.appendMany(0, 120);
        long max = source.maxOffset();
        AppendResult middle = written.get(60);
        long confirm = middle.commitLogOffset() + middle.sizeBytes();
        AutoSwitchConfig slaveConfig = new AutoSwitchConfig(false, 1, 1, 15_000, true, true, false);
        AutoSwitchNode slave = node(slaveDir, slaveConfig);

        try (ServerSocket acceptor = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            slave.service.changeToSlave(5, 1, "127.0.0.1:" + acceptor.getLocalPort()).await();
            try (Socket socket = accept(acceptor)) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                assertEquals(1, in.readInt(), "HANDSHAKE state");
                assertEquals(1, in.readShort(), "isSyncFromLastFile");
                assertEquals(1, in.readShort(), "isAsyncLearner");
                assertEquals(5, in.readLong(), "slaveBrokerId");

                out.write(masterHandshake(max, List.of(EpochEntry.open(1, 0))));
                assertEquals(2, in.readInt(), "TRANSFER report");
                assertEquals(0, in.readLong(), "an empty slave reports 0");

                for (long at = 0; at < max; ) {
                    int size = (int) Math.min(3_000, Math.min(max, (at / AutoSwitchNode.SEGMENT_BYTES + 1)
                        * AutoSwitchNode.SEGMENT_BYTES) - at);
                    out.write(masterTransfer(at, 1, 0, confirm, bytes(source.store, at, size)));
                    at += size;
                }
                long reported = 0;
                while (reported < max) {
                    assertEquals(2, in.readInt());
                    reported = Math.max(reported, in.readLong());
                }
                slave.assertSameCommitLogAs(source);
                assertEquals(List.of(EpochEntry.open(1, 0)), slave.epochs.entries());
                assertEquals(confirm, slave.service.confirmOffset(), "min(frame confirm offset, local max)");
                await(() -> slave.readable(0).size() + slave.readable(1).size() == 61, "confirmed ones readable");
                assertTrue(slave.readable(0).stream().allMatch(offset -> offset < confirm));

                out.write(masterTransfer(max, 2, max, max, new byte[0]));   // heartbeat, new epoch
                await(() -> slave.epochs.lastEpoch() == 2, "epoch from the frame header");
                assertEquals(List.of(new EpochEntry(1, 0, max), EpochEntry.open(2, max)), slave.epochs.entries());
                await(() -> slave.readable(0).size() + slave.readable(1).size() == 120, "all confirmed");

                assertEquals(2, in.readInt(), "the slave's periodic report");
                assertEquals(max, in.readLong());

                out.write(masterTransfer(max + 100, 2, max, max, new byte[8]));   // does not continue the slave
                assertClosed(in);
            }
        }
    }

    // ---------------------------------------------------------------- frames, written field by field

    private static byte[] slaveHandshake(short syncFromLastFile, short asyncLearner, long brokerId) {
        return ByteBuffer.allocate(16).putInt(1).putShort(syncFromLastFile).putShort(asyncLearner).putLong(brokerId)
            .array();
    }

    private static byte[] slaveTransfer(long offset) {
        return ByteBuffer.allocate(12).putInt(2).putLong(offset).array();
    }

    private static byte[] masterHandshake(long maxOffset, List<EpochEntry> entries) {
        ByteBuffer frame = ByteBuffer.allocate(20 + 12 * entries.size()).putInt(1).putInt(12 * entries.size())
            .putLong(maxOffset).putInt(entries.get(entries.size() - 1).epoch());
        entries.forEach(entry -> frame.putInt(entry.epoch()).putLong(entry.startOffset()));
        return frame.array();
    }

    private static byte[] masterTransfer(long offset, int epoch, long epochStart, long confirm, byte[] body) {
        return ByteBuffer.allocate(36 + body.length).putInt(2).putInt(body.length).putLong(offset).putInt(epoch)
            .putLong(epochStart).putLong(confirm).put(body).array();
    }

    private static byte[] bytes(MessageStore store, long offset, int size) {
        ByteBuffer slice = store.readCommitLog(offset, size);
        byte[] copy = new byte[slice.remaining()];
        slice.get(copy);
        assertEquals(size, copy.length);
        return copy;
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        return socket;
    }

    private static Socket accept(ServerSocket acceptor) throws IOException {
        acceptor.setSoTimeout(READ_TIMEOUT_MS);
        Socket socket = acceptor.accept();
        socket.setSoTimeout(READ_TIMEOUT_MS);
        return socket;
    }

    /** The peer closed: reads end (EOF or reset), they do not time out. */
    private static void assertClosed(DataInputStream in) {
        assertThrows(IOException.class, () -> {
            while (true) {
                try {
                    in.readByte();
                } catch (SocketTimeoutException stillOpen) {
                    throw new AssertionError("the link stayed open");
                }
            }
        }, "closed");
    }
}
