package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.Vertx;
import io.vrmq.broker.ha.HaConfig;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.AppendResult;
import io.vrmq.store.AppendStatus;
import io.vrmq.store.FoundMessage;
import io.vrmq.store.GetMessageResult;
import io.vrmq.store.MessageStore;
import io.vrmq.store.MessageToStore;
import io.vrmq.store.StoreConfig;
import io.vrmq.store.StoreOptions;
import io.vrmq.store.TagFilter;
import io.vrmq.store.epoch.EpochFile;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One controller-mode broker's replication half for tests: a real store in its own directory (64 KiB segments, so a
 * few hundred messages roll several), its StoreAccess, epoch file and AutoSwitchHaService listening on loopback.
 * Each node has its own Vert.x (as each broker is its own process): StoreAccess's writer and reader pools are shared
 * per Vert.x instance by name. Driven from the test thread: every call blocks until done.
 */
final class AutoSwitchNode implements AutoCloseable {
    static final int SEGMENT_BYTES = 64 * 1024;
    static final String TOPIC = "AutoSwitch";
    static final long WAIT_MS = 30_000;

    final Vertx vertx;
    final Path dir;
    final MessageStore store;
    final StoreAccess access;
    final EpochFile epochs;
    final AutoSwitchHaService service;
    final int haPort;

    private AutoSwitchNode(Vertx vertx, Path dir, MessageStore store, StoreAccess access, EpochFile epochs,
                           AutoSwitchHaService service, int haPort) {
        this.vertx = vertx;
        this.dir = dir;
        this.store = store;
        this.access = access;
        this.epochs = epochs;
        this.service = service;
        this.haPort = haPort;
    }

    static HaConfig ha(long slaveTimeoutMs) {
        return new HaConfig(0, "", 200, 3_000, 4_096, 256L * 1024 * 1024, slaveTimeoutMs, false, 1_000);
    }

    static AutoSwitchConfig config(boolean allAck, int minInSyncReplicas, long haMaxTimeSlaveNotCatchupMs) {
        return new AutoSwitchConfig(allAck, 1, minInSyncReplicas, haMaxTimeSlaveNotCatchupMs, false, false, false);
    }

    static AutoSwitchNode start(Path dir, AutoSwitchConfig config, HaConfig ha) {
        Vertx vertx = Vertx.vertx();
        MessageStore store = MessageStore.open(storeConfig(dir),
            StoreOptions.defaults().withDispatchGatedByConfirmOffset(!config.readUnCommitted()));
        StoreAccess access = new StoreAccess(vertx, store, 2);
        EpochFile epochs = EpochFile.open(dir.resolve("epochFileCheckpoint"));
        AutoSwitchHaService service = new AutoSwitchHaService(vertx, access, epochs, ha, config);
        int port = service.listen("127.0.0.1", 0).await();
        return new AutoSwitchNode(vertx, dir, store, access, epochs, service, port);
    }

    static StoreConfig storeConfig(Path dir) {
        Map<String, Object> values = new HashMap<>();
        values.put("storePathRootDir", dir.toString());
        values.put("mappedFileSizeCommitLog", SEGMENT_BYTES);
        values.put("mappedFileSizeConsumeQueue", 100 * 20);
        values.put("maxMessageSize", 16 * 1024);
        values.put("flushIntervalCommitLogMs", 50);
        values.put("flushIntervalConsumeQueueMs", 100);
        values.put("maxIndexHashSlots", 64);
        values.put("maxIndexCount", 400);
        values.put("retentionCheckIntervalMs", 3_600_000);
        return StoreConfig.from(values);
    }

    String haAddress() {
        return "127.0.0.1:" + haPort;
    }

    AppendResult append(int queueId, int sequence, int bodyBytes) {
        AppendResult result = access.append(message(queueId, sequence, bodyBytes)).await();
        assertEquals(AppendStatus.PUT_OK, result.status(), result.remark());
        return result;
    }

    /** {@code count} messages over 2 queues, sequences from {@code firstSequence}, bodies of 200..1400 bytes. */
    List<AppendResult> appendMany(int firstSequence, int count) {
        List<AppendResult> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int sequence = firstSequence + i;
            written.add(append(sequence % 2, sequence, 200 + (sequence * 37) % 1200));
        }
        return written;
    }

    static MessageToStore message(int queueId, int sequence, int bodyBytes) {
        byte[] name = (TOPIC + "/" + queueId + "/" + sequence + "/").getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[Math.max(bodyBytes, name.length)];
        System.arraycopy(name, 0, body, 0, name.length);
        String properties = "KEYS\u0001key-" + sequence + "\u0002UNIQ_KEY\u0001uniq-" + sequence + "\u0002";
        return new MessageToStore(TOPIC, queueId, 0, body, properties, 0, 1_700_000_000_000L + sequence,
            new InetSocketAddress("127.0.0.1", 40000), 0, 0);
    }

    long maxOffset() {
        return store.getCommitLogMaxOffset();
    }

    /** The commit-log offsets of every message consumers can read from {@code queueId}, in queue order. */
    List<Long> readable(int queueId) {
        List<Long> offsets = new ArrayList<>();
        long next = store.getMinOffsetInQueue(TOPIC, queueId);
        long max = store.getMaxOffsetInQueue(TOPIC, queueId);
        while (next < max) {
            GetMessageResult read = store.getMessages(TOPIC, queueId, next, 64, 1 << 22, TagFilter.ALL);
            for (FoundMessage found : read.messages()) {
                offsets.add(found.commitLogOffset());
            }
            assertTrue(read.nextBeginOffset() > next, "reads advance");
            next = read.nextBeginOffset();
        }
        return offsets;
    }

    /** Same max offset and the same bytes from this node's min offset on. */
    void assertSameCommitLogAs(AutoSwitchNode other) {
        assertEquals(other.maxOffset(), maxOffset(), "max offset");
        long at = store.getCommitLogMinOffset();
        while (at < maxOffset()) {
            ByteBuffer mine = store.readCommitLog(at, 16 * 1024);
            ByteBuffer theirs = other.store.readCommitLog(at, 16 * 1024);
            assertEquals(theirs, mine, "commit log bytes at " + at);
            at += mine.remaining();
        }
    }

    static void await(BooleanSupplier condition, String what) {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out: " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    @Override
    public void close() {
        service.close().await();
        access.close().await();
        vertx.close().await();
    }
}
