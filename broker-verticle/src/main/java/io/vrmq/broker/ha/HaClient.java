package io.vrmq.broker.ha;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vrmq.broker.store.StoreAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * The slave's side of replication: connects to the master's HA port, reports how far its CommitLog goes, writes
 * the frames it receives (on the store's writer thread, in order) and reports again after each. Reconnects every
 * second while the master is unreachable; closes a link silent for haHousekeepingInterval. Runs on the context that
 * created it.
 */
public final class HaClient {
    private static final Logger log = LoggerFactory.getLogger(HaClient.class);
    private static final long TICK_MS = 1000;
    /** Frames handed to the writer and not yet written; past this the socket is paused (the writer sets the pace). */
    private static final int MAX_FRAMES_IN_FLIGHT = 64;

    private final Vertx vertx;
    private final StoreAccess store;
    private final HaConfig config;
    private final Supplier<String> masterHaAddress;
    private final NetClient client;
    private NetSocket socket;
    private String connectedTo;
    private boolean isConnecting;
    private long generation;
    private Buffer unread = Buffer.buffer();
    private long expectedOffset;
    private int framesInFlight;
    private long lastReadMs;
    private long lastReportMs;
    private long reportedOffset = -1;
    private long timerId = -1;
    private volatile boolean isConnected;
    private volatile long masterOffsetSeen = -1;

    /** @param masterHaAddress the master's "host:port" HA address as now known, or null while unknown */
    public HaClient(Vertx vertx, StoreAccess store, HaConfig config, Supplier<String> masterHaAddress) {
        this(vertx, store, config, masterHaAddress, HaLinkTls.plain().clientOptions());
    }

    /** @param options how to connect to the master (TLS or plain: {@link HaLinkTls}) */
    public HaClient(Vertx vertx, StoreAccess store, HaConfig config, Supplier<String> masterHaAddress,
                    NetClientOptions options) {
        this.vertx = vertx;
        this.store = store;
        this.config = config;
        this.masterHaAddress = masterHaAddress;
        this.client = vertx.createNetClient(options);
    }

    public void start() {
        timerId = vertx.setPeriodic(TICK_MS, id -> tick());
        tick();
    }

    public Future<Void> close() {
        vertx.cancelTimer(timerId);
        disconnect("broker stopping");
        return client.close();
    }

    /** True while the link to the master is up: the master is alive. Any thread. */
    public boolean isConnected() {
        return isConnected;
    }

    /** Where the master's stream had got to in the last frame received (-1 before any). Any thread. */
    public long masterOffsetSeen() {
        return masterOffsetSeen;
    }

    /** The master's HA address in use, or null. */
    public String connectedTo() {
        return connectedTo;
    }

    private void tick() {
        String target = masterHaAddress.get();
        long nowMs = System.currentTimeMillis();
        if (socket != null && target != null && !target.equals(connectedTo)) {
            disconnect("master HA address changed to " + target);
        }
        if (socket == null) {
            if (target != null && !isConnecting) {
                connect(target);
            }
            return;
        }
        if (nowMs - lastReadMs > config.haHousekeepingIntervalMs()) {
            disconnect("nothing from the master for " + (nowMs - lastReadMs) + " ms (haHousekeepingInterval)");
            return;
        }
        if (nowMs - lastReportMs >= config.haSendHeartbeatIntervalMs()) {
            report(store.store().getCommitLogMaxOffset());
        }
    }

    private void connect(String target) {
        int colon = target.lastIndexOf(':');
        isConnecting = true;
        client.connect(Integer.parseInt(target.substring(colon + 1)), target.substring(0, colon))
            // The report must follow every frame still queued for the writer from an earlier link.
            .compose(connected -> store.afterQueuedWrites(() -> store.store().getCommitLogMaxOffset())
                .map(offset -> {
                    attach(connected, target, offset);
                    return null;
                }))
            .onFailure(error -> log.debug("cannot reach master HA {}: {}", target, error.getMessage()))
            .onComplete(done -> isConnecting = false);
    }

    private void attach(NetSocket connected, String target, long offset) {
        long link = ++generation;
        socket = connected;
        connectedTo = target;
        unread = Buffer.buffer();
        expectedOffset = offset;
        reportedOffset = -1;
        framesInFlight = 0;
        lastReadMs = System.currentTimeMillis();
        isConnected = true;
        connected.handler(bytes -> onBytes(link, bytes));
        connected.exceptionHandler(error -> disconnect("socket error: " + error.getMessage()));
        connected.closeHandler(ignored -> {
            if (link == generation) {
                socket = null;
                isConnected = false;
                log.warn("link to master HA {} closed", target);
            }
        });
        report(offset);
        log.info("connected to master HA {}; replicating from offset {}", target, offset);
    }

    private void onBytes(long link, Buffer bytes) {
        if (link != generation) {
            return;
        }
        lastReadMs = System.currentTimeMillis();
        unread = unread.length() == 0 ? bytes : unread.appendBuffer(bytes);
        int at = 0;
        while (unread.length() - at >= HaFrames.HEADER_BYTES) {
            long offset = unread.getLong(at);
            int size = unread.getInt(at + 8);
            if (size < 0 || size > config.haTransferBatchSize() * 128) {
                disconnect("bad frame from master: body size " + size);
                return;
            }
            if (unread.length() - at < HaFrames.HEADER_BYTES + size) {
                break;
            }
            masterOffsetSeen = offset + size;
            // A view, not a copy: these bytes of the buffer never change (appends go past its end, and a buffer
            // with frames taken from it is replaced below), so the writer may read them later.
            if (size > 0 && !accept(link, offset, ((BufferInternal) unread).getByteBuf()
                .nioBuffer(at + HaFrames.HEADER_BYTES, size))) {
                return;
            }
            at += HaFrames.HEADER_BYTES + size;
        }
        if (at > 0) {
            // One copy of the rest, into room for its whole frame when its header (checked above) is there.
            int rest = unread.length() - at;
            int frame = rest >= HaFrames.HEADER_BYTES ? HaFrames.HEADER_BYTES + unread.getInt(at + 8)
                : HaFrames.HEADER_BYTES;
            unread = Buffer.buffer(Math.max(rest, frame)).appendBuffer(unread, at, rest);
        }
    }

    /** An empty slave takes the master's first offset, whatever it is; otherwise frames must continue ours. */
    private boolean accept(long link, long offset, ByteBuffer body) {
        if (offset != expectedOffset && expectedOffset != 0) {
            disconnect("master sent offset " + offset + " but this slave continues at " + expectedOffset);
            return false;
        }
        expectedOffset = offset + body.remaining();
        framesInFlight++;
        if (framesInFlight >= MAX_FRAMES_IN_FLIGHT) {
            socket.pause();
        }
        store.replicate(offset, body).onComplete(written -> {
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
            reportProgress(written.result());
        });
        return true;
    }

    /**
     * Write callbacks may run out of order (one that completes before its listener is attached runs at once), so
     * only an offset beyond the last one reported is sent: the master must never see the slave go backwards.
     */
    private void reportProgress(long publishedOffset) {
        if (publishedOffset > reportedOffset) {
            report(publishedOffset);
        }
    }

    private void report(long offset) {
        if (socket != null) {
            socket.write(HaFrames.report(offset));
            reportedOffset = offset;
            lastReportMs = System.currentTimeMillis();
        }
    }

    private void disconnect(String reason) {
        if (socket != null) {
            log.warn("link to master HA {} closed: {}", connectedTo, reason);
            generation++;
            socket.close();
            socket = null;
            isConnected = false;
        }
    }
}
