package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** A master's messages and the copy loop a replica's broker runs: readCommitLog chunks into appendReplicated. */
final class ReplicaFixture {
    static final String[] TOPICS = {"RepA", "RepB"};
    static final int QUEUES = 3;

    private ReplicaFixture() {
    }

    /**
     * Appends {@code count} messages over every topic and queue with tags and keys, every seventh with a body of
     * up to 6 KiB (so segment fillers vary), and one batch; returns the results in order once all are dispatched.
     */
    static List<AppendResult> fillMaster(MessageStore master, int count) throws InterruptedException {
        List<AppendResult> results = new ArrayList<>();
        Map<String, Long> queueMaxOffsets = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String topic = TOPICS[i % TOPICS.length];
            int queueId = (i / TOPICS.length) % QUEUES;
            int bodyBytes = i % 7 == 0 ? 100 + (i * 997) % 6_000 : 40;
            AppendResult result = ok(master.append(message(topic, queueId, i, "tag" + (i % 4), bodyBytes)));
            results.add(result);
            queueMaxOffsets.put(topic + "/" + queueId, result.queueOffset() + 1);
            if (i == count / 2) {
                AppendResult batch = ok(master.appendBatch(List.of(message("RepBatch", 0, i, "b", 300),
                        message("RepBatch", 0, i + 1, "b", 300), message("RepBatch", 0, i + 2, "b", 300))));
                results.add(batch);
                queueMaxOffsets.put("RepBatch/0", batch.queueOffset() + batch.messageCount());
            }
        }
        for (Map.Entry<String, Long> queue : queueMaxOffsets.entrySet()) {
            String[] topicAndId = queue.getKey().split("/");
            AppendAndReadTest.awaitDispatched(master, topicAndId[0], Integer.parseInt(topicAndId[1]),
                    queue.getValue());
        }
        return results;
    }

    /** A message with TAGS, KEYS "key-n shared" and UNIQ_KEY "uniq-n", body of {@code bodyBytes} naming it. */
    static MessageToStore message(String topic, int queueId, int sequence, String tag, int bodyBytes) {
        String properties = "TAGS\u0001" + tag + "\u0002KEYS\u0001key-" + sequence + " shared\u0002UNIQ_KEY\u0001uniq-"
                + sequence + "\u0002";
        byte[] name = (topic + "/" + queueId + "/" + sequence + "/").getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[Math.max(bodyBytes, name.length)];
        System.arraycopy(name, 0, body, 0, name.length);
        return new MessageToStore(topic, queueId, 0, body, properties, 0, 1_700_000_000_000L + sequence,
                new InetSocketAddress("127.0.0.1", 40000), 0, 0);
    }

    /**
     * Copies the master's CommitLog into the replica from the replica's write offset up to {@code untilOffset}, in
     * chunks of random size: half of them 1..64 bytes, the others up to 40 KiB (readCommitLog also ends them at a
     * segment end), so records split everywhere.
     */
    static void replicate(MessageStore master, MessageStore replica, Random random, long untilOffset) {
        replicate(master, replica, random, replica.replicaWriteOffset(), untilOffset);
    }

    /** As above from {@code fromOffset}: an empty replica starts wherever the master's stream starts. */
    static void replicate(MessageStore master, MessageStore replica, Random random, long fromOffset,
                          long untilOffset) {
        long at = fromOffset;
        while (at < untilOffset) {
            int wanted = random.nextBoolean() ? 1 + random.nextInt(64) : 1 + random.nextInt(40 * 1024);
            ByteBuffer chunk = master.readCommitLog(at, (int) Math.min(wanted, untilOffset - at));
            replica.appendReplicated(at, chunk);
            at += chunk.remaining();
            assertEquals(at, replica.replicaWriteOffset());
        }
    }

    static void replicateAll(MessageStore master, MessageStore replica, Random random) {
        replicate(master, replica, random, master.getCommitLogMaxOffset());
    }

    /** A heap copy of the master's bytes in [from, to), which must lie in one segment. */
    static ByteBuffer copyOf(MessageStore master, long from, long to) {
        ByteBuffer slice = master.readCommitLog(from, (int) (to - from));
        assertEquals(to - from, slice.remaining());
        ByteBuffer copy = ByteBuffer.allocate(slice.remaining());
        copy.put(slice.duplicate()).flip();
        return copy;
    }

    private static AppendResult ok(AppendResult result) {
        assertEquals(AppendStatus.PUT_OK, result.status(), result.remark());
        return result;
    }
}
