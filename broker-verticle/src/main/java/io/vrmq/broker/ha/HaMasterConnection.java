package io.vrmq.broker.ha;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.store.StoreAccess;
import io.vrmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

/**
 * One slave's link on the master: reads its offset reports and streams the CommitLog to it from where it asked,
 * reading on the store's reader pool and writing while the socket's queue has room. Idle, it sends a heartbeat
 * every haSendHeartbeatInterval and waits for {@link #wake()}. Confined to the HA server's context.
 */
final class HaMasterConnection {
    /** Frames read per trip to the reader pool: fewer hops when a slave is far behind. */
    private static final int FRAMES_PER_READ = 8;
    private static final Logger log = LoggerFactory.getLogger(HaMasterConnection.class);

    private final HaServer server;
    private final NetSocket socket;
    private final StoreAccess store;
    private final HaConfig config;
    private final String address;
    private Buffer unreadReport = Buffer.buffer();
    private long nextTransferOffset = -1;
    private long ackOffset = -1;
    private long lastReadMs;
    private long lastWriteMs;
    private boolean isReading;
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
        if (nextTransferOffset >= 0 && !isReading && nowMs - lastWriteMs >= config.haSendHeartbeatIntervalMs()) {
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
        unreadReport = unreadReport.getBuffer(whole, unreadReport.length());
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

    private void pump() {
        if (isClosed || isReading || nextTransferOffset < 0 || socket.writeQueueFull()
            || nextTransferOffset >= store.store().getCommitLogMaxOffset()) {
            return;
        }
        isReading = true;
        long from = nextTransferOffset;
        store.read(() -> frames(from)).onComplete(read -> {
            isReading = false;
            if (isClosed) {
                return;
            }
            if (read.failed()) {
                close(read.cause().getMessage());
                return;
            }
            Frames frames = read.result();
            nextTransferOffset = frames.nextOffset();
            write(frames.bytes());
            pump();
        });
    }

    private void write(Buffer bytes) {
        socket.write(bytes);
        lastWriteMs = System.currentTimeMillis();
    }

    private record Frames(Buffer bytes, long nextOffset) {
    }

    /** Reader pool: up to FRAMES_PER_READ frames from {@code from}, copied out of the mapped segments. */
    private Frames frames(long from) {
        Buffer out = Buffer.buffer();
        long at = from;
        for (int i = 0; i < FRAMES_PER_READ; i++) {
            ByteBuffer chunk = store.store().readCommitLog(at, config.haTransferBatchSize());
            if (chunk == null) {
                throw new IllegalStateException("commit log offset " + at + " is no longer kept (retention deleted "
                    + "it before the slave caught up); clear the slave's store so it copies again");
            }
            if (!chunk.hasRemaining()) {
                break;
            }
            byte[] body = new byte[chunk.remaining()];
            chunk.get(body);
            out.appendLong(at).appendInt(body.length).appendBytes(body);
            at += body.length;
        }
        return new Frames(out, at);
    }
}
