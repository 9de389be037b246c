package io.vrmq.broker.ha;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

/**
 * One slave's link on the master: reads its offset reports and streams the CommitLog to it from where it asked,
 * writing while the socket's queue has room. Idle, it sends a heartbeat every haSendHeartbeatInterval and waits for
 * {@link #wake()}. Confined to the HA server's context.
 *
 * <p>A transfer is the store's own mapped slices behind small headers, built right here: no copy of the CommitLog
 * bytes on the heap and no trip to the reader pool, as the pull path sends its records (a slice is only a view, so
 * building it cannot block; the socket reads the pages when it writes them). Before, each transfer went to the
 * reader pool and back and copied its bytes twice into a growing heap buffer: two thread hops and about twice the
 * replicated bytes in garbage between an append and its frame on the wire (benchmark/RESULTS.md, "SYNC_MASTER
 * tail").
 */
final class HaMasterConnection {
    /** Most frames per socket write: one write per wake-up in steady state, bounded while a slave catches up. */
    private static final int FRAMES_PER_WRITE = 8;
    private static final Logger log = LoggerFactory.getLogger(HaMasterConnection.class);

    private final HaServer server;
    private final NetSocket socket;
    private final StoreAccess store;
    private final HaConfig config;
    private final String address;
    /** Never appended to while empty: onBytes then takes the received buffer instead. */
    private Buffer unreadReport = Buffer.buffer(0);
    private long nextTransferOffset = -1;
    private long ackOffset = -1;
    private long lastReadMs;
    private long lastWriteMs;
    private boolean isClosed;

    HaMasterConnection(HaServer server, NetSocket socket, StoreAccess store, HaConfig config, long nowMs) {
        this.server = server;
        this.socket = socket;
        this.store = store;
        this.config = config;
        this.address = socket.remoteAddress().toString();
        this.lastReadMs = nowMs;
        this.lastWriteMs = nowMs;
    }

    void start() {
        socket.handler(this::onBytes);
        socket.drainHandler(ignored -> pump());
        socket.exceptionHandler(error -> close("socket error: " + error.getMessage()));
        socket.closeHandler(ignored -> {
            isClosed = true;
            server.removed(this);
        });
        log.info("slave {} connected", address);
    }

    String address() {
        return address;
    }

    /** Everything below it is on the slave; -1 before its first report. */
    long ackOffset() {
        return ackOffset;
    }

    /** New CommitLog bytes may be there. */
    void wake() {
        pump();
    }

    /** Heartbeat when idle, close when the slave went silent. */
    void tick(long nowMs) {
        if (nowMs - lastReadMs > config.haHousekeepingIntervalMs()) {
            close("no report for " + (nowMs - lastReadMs) + " ms (haHousekeepingInterval "
                + config.haHousekeepingIntervalMs() + " ms)");
            return;
        }
        if (nextTransferOffset >= 0 && nowMs - lastWriteMs >= config.haSendHeartbeatIntervalMs()) {
            write(HaFrames.heartbeat(nextTransferOffset));
        }
        pump();
    }

    void close(String reason) {
        if (!isClosed) {
            isClosed = true;
            log.warn("slave {} link closed: {}", address, reason);
            socket.close();
        }
    }

    /** The furthest of the whole reports received counts; a partial one waits for its bytes. */
    private void onBytes(Buffer bytes) {
        lastReadMs = System.currentTimeMillis();
        unreadReport = unreadReport.length() == 0 ? bytes : unreadReport.appendBuffer(bytes);
        int whole = unreadReport.length() - unreadReport.length() % HaFrames.REPORT_BYTES;
        if (whole == 0) {
            return;
        }
        long reported = -1;
        for (int at = 0; at < whole; at += HaFrames.REPORT_BYTES) {
            reported = Math.max(reported, unreadReport.getLong(at));
        }
        int rest = unreadReport.length() - whole;
        unreadReport = rest == 0 ? Buffer.buffer(0)
            : Buffer.buffer(HaFrames.REPORT_BYTES).appendBuffer(unreadReport, whole, rest);
        onReport(reported);
    }

    private void onReport(long reported) {
        ackOffset = Math.max(ackOffset, reported);
        server.acked(reported);
        if (nextTransferOffset < 0) {
            begin(reported);
        }
    }

    /**
     * An empty slave (offset 0) gets everything this master still keeps, not only its newest segment as RocketMQ
     * does; a slave ahead of the master or behind its oldest kept byte cannot be continued.
     */
    private void begin(long reported) {
        MessageStore messages = store.store();
        long min = messages.getCommitLogMinOffset();
        long max = messages.getCommitLogMaxOffset();
        if (reported > max) {
            close("slave reports offset " + reported + " beyond this master's max " + max
                + ": its store is not a copy of this master's");
            return;
        }
        if (reported != 0 && reported < min) {
            close("slave at offset " + reported + " is behind the oldest kept offset " + min
                + ": clear the slave's store so it copies again");
            return;
        }
        nextTransferOffset = reported == 0 ? min : reported;
        log.info("slave {} reported offset {}; streaming from {}", address, reported, nextTransferOffset);
        pump();
    }

    /** Writes what the slave lacks while the socket takes it; the drain handler calls again once it has room. */
    private void pump() {
        while (!isClosed && nextTransferOffset >= 0 && !socket.writeQueueFull()
            && nextTransferOffset < store.store().getCommitLogMaxOffset()) {
            if (!writeFrames()) {
                return;
            }
        }
    }

    /**
     * Up to FRAMES_PER_WRITE frames from nextTransferOffset in one socket write: each a 12-byte header and a
     * read-only slice of the mapped segment (valid like a pulled record), none crossing a segment end. Every part is
     * direct memory, so the socket writes them as they are: a heap header among them would make Netty merge the
     * whole write into one new heap array first.
     */
    private boolean writeFrames() {
        ByteBufAllocator allocator = ((NetSocketInternal) socket).channelHandlerContext().alloc();
        CompositeByteBuf frames = allocator.compositeDirectBuffer(2 * FRAMES_PER_WRITE);
        ByteBuf headers = allocator.directBuffer(HaFrames.HEADER_BYTES * FRAMES_PER_WRITE);
        boolean isHandedOver = false;
        try {
            long at = nextTransferOffset;
            while (frames.numComponents() < 2 * FRAMES_PER_WRITE) {
                ByteBuffer chunk = store.store().readCommitLog(at, config.haTransferBatchSize());
                if (chunk == null) {
                    close("commit log offset " + at + " is no longer kept (retention deleted it before the slave "
                        + "caught up); clear the slave's store so it copies again");
                    return false;
                }
                if (!chunk.hasRemaining()) {
                    break;
                }
                int header = headers.writerIndex();
                headers.writeLong(at).writeInt(chunk.remaining());
                frames.addComponent(true, headers.retainedSlice(header, HaFrames.HEADER_BYTES));
                frames.addComponent(true, Unpooled.wrappedBuffer(chunk));
                at += chunk.remaining();
            }
            if (frames.numComponents() == 0) {
                return false;
            }
            nextTransferOffset = at;
            isHandedOver = true;
            ((NetSocketInternal) socket).writeMessage(frames);   // the channel releases it once written
            lastWriteMs = System.currentTimeMillis();
            return true;
        } finally {
            headers.release();   // the frames' slices hold it until they are released
            if (!isHandedOver) {
                frames.release();
            }
        }
    }

    private void write(Buffer bytes) {
        socket.write(bytes);
        lastWriteMs = System.currentTimeMillis();
    }
}
