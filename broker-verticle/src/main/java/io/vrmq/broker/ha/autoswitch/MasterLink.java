package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.ha.HaConfig;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.MessageStore;
import io.vrmq.store.epoch.EpochEntry;
import io.vrmq.store.epoch.EpochFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

/**
 * One slave's link on a controller-mode master (RocketMQ's AutoSwitchHAConnection): answers the slave's HANDSHAKE
 * with the epoch list, starts streaming at its first TRANSFER report and streams {@link AutoSwitchFrames} TRANSFER
 * frames, each within one epoch and one segment, read on the store's reader pool. Idle, it sends a heartbeat (an
 * empty TRANSFER frame) after haSendHeartbeatInterval; it closes after haHousekeepingInterval without a read.
 *
 * <p>Confined to the HA service's context; the fields the admin views show are volatile for other threads.
 */
final class MasterLink {
    /** Frames built per trip to the reader pool: fewer hops while a slave is far behind. */
    private static final int FRAMES_PER_READ = 8;
    private static final Logger log = LoggerFactory.getLogger(MasterLink.class);

    /** What the link reports to its service (on the service's context). */
    interface Events {
        /** A TRANSFER report: everything below {@code ackOffset} is on the slave. */
        void onAck(MasterLink link, long ackOffset);

        /** Nothing left to send: the slave has been sent everything (RocketMQ counts that as caught up). */
        void onNothingToSend(MasterLink link, long nowMs);

        void onClosed(MasterLink link);

        /** The confirm offset to put in frame headers. */
        long confirmOffset();
    }

    private final Events events;
    private final NetSocket socket;
    private final StoreAccess store;
    private final EpochFile epochs;
    private final HaConfig config;
    private final String address;
    private final ByteRate rate;
    private Buffer unread = Buffer.buffer();
    private long requestOffset = -1;
    private int transferEpoch = -1;
    private boolean isReading;
    private volatile boolean isClosed;
    private volatile int state = AutoSwitchFrames.HANDSHAKE;
    private volatile long slaveId = -1;
    private volatile boolean isAsyncLearner;
    private volatile boolean isSyncFromLastFile;
    private volatile long ackOffset = -1;
    private volatile long nextTransferOffset = -1;
    private volatile long lastMasterMaxOffset = -1;
    private volatile long lastTransferTimeMs;
    private volatile long lastReadMs;
    private volatile long lastWriteMs;

    MasterLink(Events events, NetSocket socket, StoreAccess store, EpochFile epochs, HaConfig config, long nowMs) {
        this.events = events;
        this.socket = socket;
        this.store = store;
        this.epochs = epochs;
        this.config = config;
        this.address = withoutLeadingSlash(socket.remoteAddress().toString());
        this.rate = new ByteRate(nowMs);
        this.lastReadMs = nowMs;
        this.lastWriteMs = nowMs;
    }

    void start() {
        socket.handler(this::onBytes);
        socket.drainHandler(ignored -> pump());
        socket.exceptionHandler(error -> close("socket error: " + error.getMessage()));
        socket.closeHandler(ignored -> {
            isClosed = true;
            events.onClosed(this);
        });
        log.info("slave link from {} opened", address);
    }

    String address() {
        return address;
    }

    /** The slave's controller id from its handshake; -1 before it. */
    long slaveId() {
        return slaveId;
    }

    boolean isAsyncLearner() {
        return isAsyncLearner;
    }

    boolean isSyncFromLastFile() {
        return isSyncFromLastFile;
    }

    /** {@link AutoSwitchFrames#HANDSHAKE} until the slave's first report, then {@link AutoSwitchFrames#TRANSFER}. */
    int state() {
        return state;
    }

    /** Everything below it is on the slave; -1 before its first report. */
    long ackOffset() {
        return ackOffset;
    }

    /** Where the next frame starts; -1 before streaming began. */
    long nextTransferOffset() {
        return nextTransferOffset;
    }

    /** The master's max offset when the last data frame was built (-1 before any). */
    long lastMasterMaxOffset() {
        return lastMasterMaxOffset;
    }

    long lastTransferTimeMs() {
        return lastTransferTimeMs;
    }

    long transferredBytesPerSecond() {
        return rate.bytesPerSecond();
    }

    /** New CommitLog bytes may be there. */
    void wake() {
        pump();
    }

    /** Heartbeat when idle, close when the slave went silent. */
    void tick(long nowMs) {
        rate.roll(nowMs);
        if (nowMs - lastReadMs > config.haHousekeepingIntervalMs()) {
            close("nothing from the slave for " + (nowMs - lastReadMs) + " ms (haHousekeepingInterval "
                + config.haHousekeepingIntervalMs() + " ms)");
            return;
        }
        if (state == AutoSwitchFrames.TRANSFER && nextTransferOffset >= 0 && !isReading
            && nowMs - lastWriteMs >= config.haSendHeartbeatIntervalMs()) {
            writeHeartbeat();
        }
        pump();
    }

    /** @param isFault a broken or silent link (WARN) rather than a planned close (INFO) */
    void close(String reason, boolean isFault) {
        if (!isClosed) {
            isClosed = true;
            if (isFault) {
                log.warn("slave link {} (broker id {}) closed: {}", address, slaveId, reason);
            } else {
                log.info("slave link {} (broker id {}) closed: {}", address, slaveId, reason);
            }
            socket.close();
        }
    }

    private void close(String reason) {
        close(reason, true);
    }

    private void onBytes(Buffer bytes) {
        lastReadMs = System.currentTimeMillis();
        unread = unread.length() == 0 ? bytes : unread.appendBuffer(bytes);
        int at = 0;
        while (!isClosed && unread.length() - at >= AutoSwitchFrames.STATE_BYTES) {
            int frameState = unread.getInt(at + AutoSwitchFrames.STATE_AT);
            int frameBytes = frameState == AutoSwitchFrames.HANDSHAKE ? AutoSwitchFrames.SLAVE_HANDSHAKE_BYTES
                : frameState == AutoSwitchFrames.TRANSFER ? AutoSwitchFrames.SLAVE_TRANSFER_BYTES : -1;
            if (frameBytes < 0) {
                close("bad frame from the slave: state " + frameState);
                return;
            }
            if (unread.length() - at < frameBytes) {
                break;
            }
            if (frameState == AutoSwitchFrames.HANDSHAKE) {
                onHandshake(at);
            } else {
                onReport(unread.getLong(at + AutoSwitchFrames.SLAVE_MAX_OFFSET_AT));
            }
            at += frameBytes;
        }
        unread = unread.getBuffer(at, unread.length());
    }

    /** The slave (re)starts: answer with this master's epochs; streaming waits for its report. */
    private void onHandshake(int at) {
        slaveId = unread.getLong(at + AutoSwitchFrames.SLAVE_BROKER_ID_AT);
        isSyncFromLastFile = unread.getShort(at + AutoSwitchFrames.SLAVE_SYNC_FROM_LAST_FILE_AT) == 1;
        isAsyncLearner = unread.getShort(at + AutoSwitchFrames.SLAVE_ASYNC_LEARNER_AT) == 1;
        state = AutoSwitchFrames.HANDSHAKE;
        requestOffset = -1;
        nextTransferOffset = -1;
        long maxOffset = store.store().getCommitLogMaxOffset();
        write(AutoSwitchFrames.masterHandshake(maxOffset, epochs.lastEpoch(), epochs.entries()));
        log.info("slave {} (broker id {}, syncFromLastFile {}, asyncLearner {}) handshake answered at max offset {} "
            + "with epochs {}", address, slaveId, isSyncFromLastFile, isAsyncLearner, maxOffset, epochs.entries());
    }

    private void onReport(long reported) {
        state = AutoSwitchFrames.TRANSFER;
        ackOffset = Math.max(ackOffset, reported);
        if (requestOffset < 0) {
            requestOffset = reported;
            begin();
        }
        if (!isClosed) {
            events.onAck(this, reported);
        }
    }

    /**
     * The first report fixes the start: 0 (an empty slave) means this master's min offset, or the start of its last
     * CommitLog file when the slave asked to sync from the last file; any other offset is continued.
     */
    private void begin() {
        MessageStore messages = store.store();
        long min = messages.getCommitLogMinOffset();
        long max = messages.getCommitLogMaxOffset();
        if (requestOffset > max) {
            close("slave reports offset " + requestOffset + " beyond this master's max " + max);
            return;
        }
        if (requestOffset != 0 && requestOffset < min) {
            close("slave at offset " + requestOffset + " is behind the oldest kept offset " + min
                + ": clear the slave's store so it copies again");
            return;
        }
        int segmentBytes = messages.config().mappedFileSizeCommitLog();
        long start = requestOffset != 0 ? requestOffset : isSyncFromLastFile ? max - max % segmentBytes : min;
        EpochEntry entry = epochs.entryCovering(start);
        if (entry == null) {
            entry = epochs.firstEntry();   // bytes older than the first epoch: label them with it
        }
        if (entry == null) {
            close("this master has no epoch entry to label frames with");
            return;
        }
        transferEpoch = entry.epoch();
        nextTransferOffset = start;
        log.info("slave {} (broker id {}) reported {}; streaming from {} in epoch {}", address, slaveId,
            requestOffset, start, entry);
        pump();
    }

    private void pump() {
        if (isClosed || isReading || nextTransferOffset < 0 || socket.writeQueueFull()) {
            return;
        }
        if (nextTransferOffset >= store.store().getCommitLogMaxOffset()) {
            events.onNothingToSend(this, System.currentTimeMillis());
            return;
        }
        isReading = true;
        Cursor from = new Cursor(nextTransferOffset, transferEpoch);
        long confirmOffset = events.confirmOffset();
        store.read(() -> frames(from, confirmOffset)).onComplete(read -> {
            isReading = false;
            if (isClosed) {
                return;
            }
            if (read.failed()) {
                close(read.cause().getMessage());
                return;
            }
            Frames frames = read.result();
            nextTransferOffset = frames.next().offset();
            transferEpoch = frames.next().epoch();
            if (frames.bytes().length() > 0) {
                long nowMs = System.currentTimeMillis();
                lastMasterMaxOffset = frames.masterMaxOffset();
                lastTransferTimeMs = nowMs;
                rate.add(frames.bytes().length(), nowMs);
                write(frames.bytes());
                pump();
            }
        });
    }

    private void writeHeartbeat() {
        EpochEntry entry = epochs.entry(transferEpoch);
        if (entry == null) {
            entry = epochs.firstEntry();
        }
        if (entry == null) {
            return;
        }
        Buffer frame = Buffer.buffer(AutoSwitchFrames.MASTER_TRANSFER_HEADER_BYTES);
        write(AutoSwitchFrames.appendTransferHeader(frame, 0, nextTransferOffset, entry.epoch(), entry.startOffset(),
            events.confirmOffset()));
    }

    private void write(Buffer bytes) {
        socket.write(bytes);
        lastWriteMs = System.currentTimeMillis();
    }

    /** Where streaming stands: the next offset and the epoch it belongs to. */
    private record Cursor(long offset, int epoch) {
    }

    private record Frames(Buffer bytes, Cursor next, long masterMaxOffset) {
    }

    /**
     * Reader pool: up to FRAMES_PER_READ frames from {@code from}, copied out of the mapped segments. A frame ends at
     * the batch size, the segment end or the end of its epoch, whichever comes first; at an epoch's end the next
     * frame carries the next epoch.
     */
    private Frames frames(Cursor from, long confirmOffset) {
        MessageStore messages = store.store();
        long masterMaxOffset = messages.getCommitLogMaxOffset();
        Buffer out = Buffer.buffer();
        long at = from.offset();
        int epoch = from.epoch();
        int built = 0;
        while (built < FRAMES_PER_READ) {
            EpochEntry entry = epochs.entry(epoch);
            if (entry == null) {
                throw new IllegalStateException("epoch " + epoch + " is gone from this master's epoch file");
            }
            long epochEnd = entry.endOffset();   // the newest epoch gains an end when a newer one begins
            if (at >= epochEnd) {
                EpochEntry next = epochs.entryAfter(epoch);
                if (next == null) {
                    throw new IllegalStateException("no epoch after " + entry + " though offset " + at
                        + " is past its end");
                }
                epoch = next.epoch();
                continue;
            }
            int limit = (int) Math.min(config.haTransferBatchSize(), epochEnd - at);
            ByteBuffer chunk = messages.readCommitLog(at, limit);
            if (chunk == null) {
                throw new IllegalStateException("commit log offset " + at + " is no longer kept (retention deleted "
                    + "it before the slave caught up)");
            }
            if (!chunk.hasRemaining()) {
                break;
            }
            byte[] body = new byte[chunk.remaining()];
            chunk.get(body);
            AutoSwitchFrames.appendTransferHeader(out, body.length, at, epoch, entry.startOffset(), confirmOffset);
            out.appendBytes(body);
            at += body.length;
            built++;
        }
        return new Frames(out, new Cursor(at, epoch), masterMaxOffset);
    }

    private static String withoutLeadingSlash(String address) {
        return address.startsWith("/") ? address.substring(1) : address;
    }
}
