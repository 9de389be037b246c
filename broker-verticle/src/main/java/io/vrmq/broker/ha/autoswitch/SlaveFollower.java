package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.ha.HaConfig;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.MessageStore;
import io.vrmq.store.epoch.ConsistentPoint;
import io.vrmq.store.epoch.EpochEntry;
import io.vrmq.store.epoch.EpochFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A controller-mode slave's link to its master (RocketMQ's AutoSwitchHAClient): connects to the master's HA address,
 * sends its HANDSHAKE, truncates its CommitLog and epoch file to the consistent point the master's epoch list gives
 * (on the store's writer thread), reports its max offset and then writes the TRANSFER frames it receives, in order,
 * reporting after each. A frame whose epoch differs from the last one seen appends that epoch to the epoch file
 * first; the confirm offset becomes min(frame's confirm offset, local max offset).
 *
 * <p>Deliberate differences from RocketMQ: the first report goes out right after the handshake (RocketMQ waits one
 * haSendHeartbeatInterval); after a truncation the epoch file loses the entries starting at or after the cut
 * (RocketMQ checks this after the cut, when it can no longer hold, and keeps them, so the next epoch from the master
 * is refused and every reconnect truncates again); there is no torn tail to cut before a reconnect (the store never
 * publishes part of a record). A slave with an empty epoch file skips the truncation, as in RocketMQ; if its store is
 * not empty it continues from its max offset unchecked (RocketMQ reports 0 and then refuses every frame).
 *
 * <p>Confined to the HA service's context.
 */
final class SlaveFollower {
    /** Between attempts to reach an unreachable master. */
    private static final long RECONNECT_INTERVAL_MS = 1_000;
    /** After a handshake that found no consistent point (RocketMQ's wait before it tries again). */
    private static final long NO_CONSISTENT_POINT_RETRY_MS = 2_000;
    /** RocketMQ's slave read buffer: no master frame body can be larger for an Apache slave either. */
    private static final int MAX_FRAME_BODY_BYTES = 4 * 1024 * 1024;
    /** Frames handed to the writer and not yet written; past this the socket is paused (the writer sets the pace). */
    private static final int MAX_FRAMES_IN_FLIGHT = 64;
    private static final int TRUNCATING = -1;
    private static final Logger log = LoggerFactory.getLogger(SlaveFollower.class);

    private final StoreAccess store;
    private final EpochFile epochs;
    private final HaConfig ha;
    private final AutoSwitchConfig config;
    private final NetClient client;
    private final ByteRate rate;
    private long brokerId = -1;
    private boolean isRunning;
    private NetSocket socket;
    private boolean isConnecting;
    private long generation;
    private long nextConnectMs;
    private int state;
    private Buffer unread = Buffer.buffer();
    /** Bytes of {@code unread} already handled; a handler may run {@link #process} again before it returns. */
    private int readAt;
    private long expectedOffset;
    private boolean isFreshReplica;
    private int framesInFlight;
    private int currentReceivedEpoch = -1;
    private long confirmOffsetSet = -1;
    private long reportedOffset = -1;
    private long lastReportMs;
    private volatile String target;
    private volatile boolean isConnected;
    private volatile long masterOffsetSeen = -1;
    private volatile long lastReadMs;
    private volatile long lastWriteMs;

    SlaveFollower(Vertx vertx, StoreAccess store, EpochFile epochs, HaConfig ha, AutoSwitchConfig config,
                  NetClientOptions options) {
        this.store = store;
        this.epochs = epochs;
        this.ha = ha;
        this.config = config;
        this.client = vertx.createNetClient(options);
        this.rate = new ByteRate(System.currentTimeMillis());
    }

    /** Follows {@code masterHaAddress} (null: wait until {@link #updateTarget}) as controller id {@code brokerId}. */
    void start(long slaveBrokerId, String masterHaAddress) {
        brokerId = slaveBrokerId;
        isRunning = true;
        updateTarget(masterHaAddress);
    }

    /** Stops following: the link closes, nothing reconnects until {@link #start}. */
    void stop() {
        isRunning = false;
        target = null;
        close("stopped following", false);
    }

    Future<Void> close() {
        stop();
        return client.close();
    }

    /** A changed address closes the link at once and connects to the new one. */
    void updateTarget(String masterHaAddress) {
        String current = target;
        if (masterHaAddress != null && masterHaAddress.equals(current)) {
            return;
        }
        target = masterHaAddress;
        close("master HA address is now " + masterHaAddress, false);
        nextConnectMs = 0;
        tick(System.currentTimeMillis());
    }

    String target() {
        return target;
    }

    boolean isConnected() {
        return isConnected;
    }

    /** End offset of the last frame received from the master (-1 before any). */
    long masterOffsetSeen() {
        return masterOffsetSeen;
    }

    long lastReadMs() {
        return lastReadMs;
    }

    long lastWriteMs() {
        return lastWriteMs;
    }

    long transferredBytesPerSecond() {
        return rate.bytesPerSecond();
    }

    String stateName() {
        return socket == null ? "READY" : state == AutoSwitchFrames.HANDSHAKE ? "HANDSHAKE"
            : state == TRUNCATING ? "TRUNCATING" : "TRANSFER";
    }

    /** Connects when due, closes a silent link, reports when the report interval passed. */
    void tick(long nowMs) {
        rate.roll(nowMs);
        if (socket == null) {
            String address = target;
            if (isRunning && address != null && !isConnecting && nowMs >= nextConnectMs) {
                connect(address);
            }
            return;
        }
        if (nowMs - lastReadMs > ha.haHousekeepingIntervalMs()) {
            disconnect("nothing from the master for " + (nowMs - lastReadMs) + " ms (haHousekeepingInterval)");
            return;
        }
        if (state == AutoSwitchFrames.TRANSFER && nowMs - lastReportMs >= ha.haSendHeartbeatIntervalMs()) {
            report(Math.max(reportedOffset, store.store().getCommitLogMaxOffset()));
        }
    }

    private void connect(String address) {
        int colon = address.lastIndexOf(':');
        isConnecting = true;
        nextConnectMs = System.currentTimeMillis() + RECONNECT_INTERVAL_MS;
        client.connect(Integer.parseInt(address.substring(colon + 1)), address.substring(0, colon))
            .onComplete(connected -> {
                isConnecting = false;
                if (connected.failed()) {
                    log.debug("cannot reach master HA {}: {}", address, connected.cause().getMessage());
                } else if (!isRunning || !address.equals(target)) {
                    connected.result().close();   // stopped or redirected while connecting
                } else {
                    attach(connected.result(), address);
                }
            });
    }

    private void attach(NetSocket connected, String address) {
        long link = ++generation;
        socket = connected;
        state = AutoSwitchFrames.HANDSHAKE;
        unread = Buffer.buffer();
        readAt = 0;
        framesInFlight = 0;
        currentReceivedEpoch = -1;
        confirmOffsetSet = -1;
        reportedOffset = -1;
        lastReadMs = System.currentTimeMillis();
        isConnected = true;
        connected.handler(bytes -> onBytes(link, bytes));
        connected.exceptionHandler(error -> disconnect("socket error: " + error.getMessage()));
        connected.closeHandler(ignored -> {
            if (link == generation && socket != null) {
                socket = null;
                isConnected = false;
                log.warn("link to master HA {} closed by the master", address);
            }
        });
        write(AutoSwitchFrames.slaveHandshake(config.syncFromLastFile(), config.asyncLearner(), brokerId));
        log.info("connected to master HA {} as broker id {}; handshake sent", address, brokerId);
    }

    private void onBytes(long link, Buffer bytes) {
        if (link != generation) {
            return;
        }
        lastReadMs = System.currentTimeMillis();
        rate.add(bytes.length(), lastReadMs);
        unread = unread.length() == 0 ? bytes : unread.appendBuffer(bytes);
        process(link);
    }

    /**
     * Handles every whole frame buffered, except while a truncation runs (the bytes wait for it). A frame counts as
     * read before its handler runs: a future that is already complete runs its callback at once, and the truncation's
     * callback calls this again.
     */
    private void process(long link) {
        while (link == generation && state != TRUNCATING
            && unread.length() - readAt >= AutoSwitchFrames.BODY_SIZE_AT + 4) {
            int at = readAt;
            int frameState = unread.getInt(at + AutoSwitchFrames.STATE_AT);
            int bodySize = unread.getInt(at + AutoSwitchFrames.BODY_SIZE_AT);
            int headerBytes = frameState == AutoSwitchFrames.HANDSHAKE ? AutoSwitchFrames.MASTER_HANDSHAKE_HEADER_BYTES
                : AutoSwitchFrames.MASTER_TRANSFER_HEADER_BYTES;
            if (frameState != state) {
                disconnect("master sent a frame in state " + frameState + " while this slave is in state " + state);
                return;
            }
            if (bodySize < 0 || bodySize > MAX_FRAME_BODY_BYTES
                || (frameState == AutoSwitchFrames.HANDSHAKE && bodySize % AutoSwitchFrames.EPOCH_ENTRY_BYTES != 0)) {
                disconnect("bad frame from the master: body size " + bodySize);
                return;
            }
            if (unread.length() - at < headerBytes + bodySize) {
                break;
            }
            readAt = at + headerBytes + bodySize;
            if (frameState == AutoSwitchFrames.HANDSHAKE) {
                onHandshake(link, at, bodySize);
            } else if (!onTransfer(link, at, bodySize)) {
                return;
            }
        }
        if (link == generation && readAt > 0) {
            unread = unread.getBuffer(readAt, unread.length());
            readAt = 0;
        }
    }

    private void onHandshake(long link, int at, int bodySize) {
        long masterMaxOffset = unread.getLong(at + AutoSwitchFrames.MASTER_OFFSET_AT);
        List<EpochEntry> masterEpochs = new ArrayList<>(bodySize / AutoSwitchFrames.EPOCH_ENTRY_BYTES);
        for (int entryAt = at + AutoSwitchFrames.MASTER_HANDSHAKE_HEADER_BYTES;
             entryAt < at + AutoSwitchFrames.MASTER_HANDSHAKE_HEADER_BYTES + bodySize;
             entryAt += AutoSwitchFrames.EPOCH_ENTRY_BYTES) {
            long startOffset = unread.getLong(entryAt + 4);
            if (startOffset < 0) {
                disconnect("bad epoch entry from the master: start offset " + startOffset);
                return;
            }
            masterEpochs.add(EpochEntry.open(unread.getInt(entryAt), startOffset));
        }
        List<EpochEntry> closed = withEnds(masterEpochs);
        state = TRUNCATING;
        store.afterQueuedWrites(() -> truncateToConsistentPoint(closed, masterMaxOffset)).onComplete(truncated -> {
            if (link != generation) {
                return;
            }
            if (truncated.failed()) {
                log.error("cannot follow master HA {}: {}", target, truncated.cause().getMessage());
                nextConnectMs = System.currentTimeMillis() + NO_CONSISTENT_POINT_RETRY_MS;
                disconnect("handshake failed");
                return;
            }
            long offset = truncated.result();
            state = AutoSwitchFrames.TRANSFER;
            expectedOffset = offset;
            isFreshReplica = offset == 0;
            report(offset);
            process(link);
        });
    }

    /** Writer thread: cuts the log and the epoch file where they stop agreeing with the master's; the new max. */
    private long truncateToConsistentPoint(List<EpochEntry> masterEpochs, long masterMaxOffset) {
        MessageStore messages = store.store();
        long localMax = messages.getCommitLogMaxOffset();
        List<EpochEntry> local = epochs.entries();
        if (local.isEmpty()) {
            if (localMax != 0) {
                log.warn("no epoch history: following the master from this store's max offset {} unchecked",
                    localMax);
            }
            return localMax;
        }
        long point = ConsistentPoint.find(local, localMax, masterEpochs, masterMaxOffset);
        if (point == ConsistentPoint.NONE) {
            throw new IllegalStateException("no consistent point between this slave's epochs " + local + " (max "
                + localMax + ") and the master's " + masterEpochs + " (max " + masterMaxOffset + ")");
        }
        if (point < localMax) {
            messages.truncateTo(point);
        }
        epochs.truncateSuffixFromOffset(point);
        log.info("consistent point with the master: {} (local max was {}); epochs now {}", point, localMax,
            epochs.entries());
        return messages.getCommitLogMaxOffset();
    }

    /** Returns false when the frame ended the link. */
    private boolean onTransfer(long link, int at, int bodySize) {
        long offset = unread.getLong(at + AutoSwitchFrames.MASTER_OFFSET_AT);
        int epoch = unread.getInt(at + AutoSwitchFrames.TRANSFER_EPOCH_AT);
        long epochStartOffset = unread.getLong(at + AutoSwitchFrames.TRANSFER_EPOCH_START_AT);
        long confirmOffset = unread.getLong(at + AutoSwitchFrames.TRANSFER_CONFIRM_OFFSET_AT);
        byte[] body = bodySize == 0 ? null : unread.getBytes(at + AutoSwitchFrames.MASTER_TRANSFER_HEADER_BYTES,
            at + AutoSwitchFrames.MASTER_TRANSFER_HEADER_BYTES + bodySize);
        masterOffsetSeen = offset + bodySize;
        if (!isFreshReplica && offset != expectedOffset) {
            disconnect("master sent offset " + offset + " but this slave continues at " + expectedOffset);
            return false;
        }
        if (epoch != currentReceivedEpoch) {
            currentReceivedEpoch = epoch;
            store.afterQueuedWrites(() -> epochs.append(epoch, epochStartOffset)).onFailure(error -> {
                if (link == generation) {
                    disconnect("cannot record epoch " + epoch + ": " + error.getMessage());
                }
            });
            if (link != generation) {
                return false;
            }
        }
        if (body == null) {
            raiseConfirmOffset(Math.min(confirmOffset, store.store().getCommitLogMaxOffset()));
            return true;
        }
        isFreshReplica = false;
        expectedOffset = offset + bodySize;
        framesInFlight++;
        if (framesInFlight >= MAX_FRAMES_IN_FLIGHT) {
            socket.pause();
        }
        store.replicate(offset, ByteBuffer.wrap(body)).onComplete(written -> {
            if (link != generation) {
                return;
            }
            framesInFlight--;
            if (written.failed()) {
                disconnect("cannot write replicated bytes at " + offset + ": " + written.cause().getMessage());
                return;
            }
            if (framesInFlight == MAX_FRAMES_IN_FLIGHT - 1) {
                socket.resume();
            }
            raiseConfirmOffset(Math.min(confirmOffset, written.result()));
            if (written.result() > reportedOffset) {
                report(written.result());   // callbacks may run out of order: only progress is reported
            }
        });
        return true;
    }

    /** Within a link the confirm offset only rises (write callbacks may complete out of order). */
    private void raiseConfirmOffset(long offset) {
        if (offset > confirmOffsetSet) {
            confirmOffsetSet = offset;
            store.store().setConfirmOffset(offset);
        }
    }

    private void report(long offset) {
        if (socket != null) {
            write(AutoSwitchFrames.slaveTransfer(offset));
            reportedOffset = Math.max(reportedOffset, offset);
            lastReportMs = System.currentTimeMillis();
        }
    }

    private void write(Buffer frame) {
        socket.write(frame);
        lastWriteMs = System.currentTimeMillis();
    }

    private void disconnect(String reason) {
        close(reason, true);
    }

    /** @param isFault a broken or silent link (WARN) rather than a planned close (INFO) */
    private void close(String reason, boolean isFault) {
        if (socket != null) {
            if (isFault) {
                log.warn("link to master HA {} closed: {}", target, reason);
            } else {
                log.info("link to master HA closed: {}", reason);
            }
            generation++;
            socket.close();
            socket = null;
            isConnected = false;
        }
    }

    /** The master's entries with each end at the next start (the newest stays open). */
    private static List<EpochEntry> withEnds(List<EpochEntry> ascending) {
        List<EpochEntry> closed = new ArrayList<>(ascending.size());
        for (int i = 0; i < ascending.size(); i++) {
            EpochEntry entry = ascending.get(i);
            long end = i + 1 < ascending.size() ? Math.max(entry.startOffset(), ascending.get(i + 1).startOffset())
                : EpochEntry.OPEN_END_OFFSET;
            closed.add(new EpochEntry(entry.epoch(), entry.startOffset(), end));
        }
        return closed;
    }
}
