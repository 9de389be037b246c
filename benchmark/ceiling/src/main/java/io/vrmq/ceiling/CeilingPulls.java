package io.vrmq.ceiling;

import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vrmq.remoting.protocol.HeaderFields;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingConnection;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361) from the records in memory, wrapped into the response without a copy;
 * tags and SQL filters are not applied (a benchmark subscribes to everything). A pull with nothing to return is held
 * (suspend flag) or answered PULL_NOT_FOUND. A commit-offset flag stores the group's offset. Event loop only.
 */
final class CeilingPulls {
    private static final int FLAG_COMMIT_OFFSET = 1;
    private static final int FLAG_SUSPEND = 1 << 1;

    private final MemoryQueues queues;
    private final HeldPulls heldPulls;
    private final int maxMessagesPerPull;

    CeilingPulls(MemoryQueues queues, HeldPulls heldPulls, int maxMessagesPerPull) {
        this.queues = queues;
        this.heldPulls = heldPulls;
        this.maxMessagesPerPull = maxMessagesPerPull;
    }

    void register(ProcessorTable.Builder table) {
        table.register(this::pull, RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE);
    }

    private Future<RemotingCommand> pull(RemotingConnection connection, RemotingCommand request) {
        HeaderFields header = request.header();
        QueueKey key = new QueueKey(header.requiredString("topic"), header.requiredInt("queueId"));
        long offset = header.requiredLong("queueOffset");
        int maxMessages = Math.min(header.optionalInt("maxMsgNums", 32), maxMessagesPerPull);
        int sysFlag = header.optionalInt("sysFlag", 0);
        if ((sysFlag & FLAG_COMMIT_OFFSET) != 0) {
            long commitOffset = header.optionalLong("commitOffset", -1L);
            if (commitOffset >= 0) {
                queues.commit(header.requiredString("consumerGroup"), key, commitOffset);
            }
        }
        RecordRing ring = queues.existing(key);
        boolean isEmpty = ring == null || offset >= ring.maxOffset();
        if (isEmpty && (sysFlag & FLAG_SUSPEND) != 0) {
            Promise<RemotingCommand> reply = Promise.promise();
            long suspendMs = Math.max(1L, header.optionalLong("suspendTimeoutMillis", 15_000L));
            RemotingCommand timedOut = notFound(request, key, offset);
            if (heldPulls.hold(key, suspendMs, reply, woken -> answer(request, woken, offset, maxMessages),
                    timedOut)) {
                return reply.future();
            }
        }
        return Future.succeededFuture(answer(request, key, offset, maxMessages));
    }

    private RemotingCommand answer(RemotingCommand request, QueueKey key, long offset, int maxMessages) {
        RecordRing ring = queues.existing(key);
        if (ring == null || offset == ring.maxOffset()) {
            return notFound(request, key, offset);
        }
        if (offset < ring.minOffset() || offset > ring.maxOffset()) {
            long next = offset < ring.minOffset() ? ring.minOffset() : ring.maxOffset();
            return RemotingCommand.response(request, ResponseCode.PULL_OFFSET_MOVED, "OFFSET_MOVED",
                header(next, ring.minOffset(), ring.maxOffset()), null);
        }
        int count = (int) Math.min(maxMessages, ring.maxOffset() - offset);
        ByteBuffer[] records = new ByteBuffer[count];
        RecordArena arena = queues.arena();
        for (int index = 0; index < count; index++) {
            records[index] = arena.slice(ring.address(offset + index), ring.size(offset + index));
        }
        Buffer body = BufferInternal.buffer(Unpooled.wrappedBuffer(records));
        return RemotingCommand.response(request, ResponseCode.SUCCESS, null,
            header(offset + count, ring.minOffset(), ring.maxOffset()), body);
    }

    private RemotingCommand notFound(RemotingCommand request, QueueKey key, long offset) {
        RecordRing ring = queues.existing(key);
        long min = ring == null ? 0 : ring.minOffset();
        long max = ring == null ? 0 : ring.maxOffset();
        return RemotingCommand.response(request, ResponseCode.PULL_NOT_FOUND, "NO_NEW_MSG", header(offset, min, max),
            null);
    }

    private static Map<String, String> header(long nextBeginOffset, long minOffset, long maxOffset) {
        Map<String, String> header = new HashMap<>();
        header.put("suggestWhichBrokerId", "0");
        header.put("nextBeginOffset", Long.toString(nextBeginOffset));
        header.put("minOffset", Long.toString(minOffset));
        header.put("maxOffset", Long.toString(maxOffset));
        return header;
    }
}
