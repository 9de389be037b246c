package io.vrmq.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM appends; we SIGKILL it mid-stream ({@code destroyForcibly}), reopen its store and look for every
 * message it reported. A SIGKILL tests process death: pages already in the kernel's cache survive it, so these tests
 * prove that acknowledged appends are complete records at recovery and that recovery keeps them and their offsets.
 * Loss on power failure (pages not yet forced) is what SYNC_FLUSH's force prevents; that cannot be simulated here.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ProcessCrashTest {
    private static final int ACKS_BEFORE_KILL = 300;

    @Test
    void everyMessageAcknowledgedUnderSyncFlushSurvivesASigkillWithValidCrcAndNoOffsetGap(@TempDir Path dir)
            throws Exception {
        List<String[]> acks = runChildAndKill(dir, FlushDiskType.SYNC_FLUSH, "ACK ", ACKS_BEFORE_KILL);
        assertTrue(acks.size() >= ACKS_BEFORE_KILL);

        try (MessageStore store = MessageStore.open(TestStores.config(dir, FlushDiskType.SYNC_FLUSH))) {
            assertFalse(store.recoveryReport().cleanShutdown(), "the abort file told recovery about the crash");
            assertTrue(store.recoveryReport().damaged().isEmpty());
            assertFound(store, acks);
            assertNoGapInAnyQueue(store);
        }
    }

    /** The same with the writer taking many sends per turn ({@link MessageStore#appendEach}): one force per turn. */
    @Test
    void everyMessageAcknowledgedUnderSyncFlushInBatchedTurnsSurvivesASigkillWithNoOffsetGap(@TempDir Path dir)
            throws Exception {
        List<String[]> acks = runChildAndKill(dir, FlushDiskType.SYNC_FLUSH, "ACK ", ACKS_BEFORE_KILL,
                CrashWriterMain.TURNS);

        try (MessageStore store = MessageStore.open(TestStores.config(dir, FlushDiskType.SYNC_FLUSH))) {
            assertFalse(store.recoveryReport().cleanShutdown(), "the abort file told recovery about the crash");
            assertTrue(store.recoveryReport().damaged().isEmpty());
            assertFound(store, acks);
            assertNoGapInAnyQueue(store);
        }
    }

    @Test
    void underAsyncFlushEverythingBeforeAnExplicitFlushPointSurvivesASigkill(@TempDir Path dir) throws Exception {
        List<String[]> lines = runChildAndKill(dir, FlushDiskType.ASYNC_FLUSH, "SENT ",
                CrashWriterMain.FLUSH_POINT + 50);
        List<String[]> flushed = lines.subList(0, CrashWriterMain.FLUSH_POINT);

        try (MessageStore store = MessageStore.open(TestStores.config(dir, FlushDiskType.ASYNC_FLUSH))) {
            assertFalse(store.recoveryReport().cleanShutdown());
            assertFound(store, flushed);
            assertNoGapBelowTheLastMessage(store);   // above it: blanks up to the reserved bound (MachineCrashTest)
        }
    }

    /** Starts the writer, reads lines starting with {@code prefix} until {@code count}, kills it, drains the rest. */
    static List<String[]> runChildAndKill(Path dir, FlushDiskType type, String prefix, int count,
                                          String... extraArgs) throws IOException, InterruptedException {
        Path stderr = dir.resolveSibling(dir.getFileName() + "-child.err");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), CrashWriterMain.class.getName(), dir.toString(),
                type.name()));
        command.addAll(List.of(extraArgs));
        Process child = new ProcessBuilder(command)
                .redirectError(stderr.toFile())
                .start();
        List<String[]> reported = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (reported.size() < count && (line = out.readLine()) != null) {
                if (line.startsWith(prefix)) {
                    reported.add(line.substring(prefix.length()).split(" "));
                }
            }
            // SIGKILL on Linux. Through the handle, because Process.destroyForcibly() also closes our end of the
            // pipe, and lines the child printed just before dying are acknowledgements we must check too.
            child.toHandle().destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            while ((line = out.readLine()) != null) {   // lines printed before death are acknowledgements too
                if (line.startsWith(prefix)) {
                    reported.add(line.substring(prefix.length()).split(" "));
                }
            }
        } finally {
            child.destroyForcibly();
        }
        assertTrue(reported.size() >= count, "child stopped early; stderr: " + Files.readString(stderr));
        return reported;
    }

    static void assertFound(MessageStore store, List<String[]> reported) {
        for (String[] fields : reported) {
            int queueId = Integer.parseInt(fields[0]);
            long queueOffset = Long.parseLong(fields[1]);
            long commitLogOffset = Long.parseLong(fields[2]);
            MessageExt decoded = MessageDecoder.decode(store.lookMessageByOffset(commitLogOffset), true, false, false,
                    false, true);
            assertNotNull(decoded, "acknowledged record at " + commitLogOffset + " is missing or fails its CRC");
            assertEquals(queueId, decoded.getQueueId());
            assertEquals(queueOffset, decoded.getQueueOffset());
            GetMessageResult read = store.getMessages(CrashWriterMain.TOPIC, queueId, queueOffset, 1, 1 << 20,
                    TagFilter.ALL);
            assertEquals(GetMessageStatus.FOUND, read.status(), "queue " + queueId + " offset " + queueOffset);
            assertEquals(commitLogOffset, read.messages().get(0).commitLogOffset());
        }
    }

    /** Every offset from 0 to the queue's highest message is a message. */
    private static void assertNoGapBelowTheLastMessage(MessageStore store) {
        for (int queueId = 0; queueId < CrashWriterMain.QUEUES; queueId++) {
            long max = store.getMaxOffsetInQueue(CrashWriterMain.TOPIC, queueId);
            Set<Long> seen = new HashSet<>();
            long next = 0;
            while (next < max) {
                GetMessageResult read = store.getMessages(CrashWriterMain.TOPIC, queueId, next, 64, 1 << 22,
                        TagFilter.ALL);
                read.messages().forEach(found -> seen.add(found.queueOffset()));
                next = read.nextBeginOffset();
            }
            long highest = seen.stream().mapToLong(Long::longValue).max().orElse(-1);
            assertEquals(highest + 1, seen.size(), "queue " + queueId + " has a gap below its last message");
        }
    }

    private static void assertNoGapInAnyQueue(MessageStore store) {
        for (int queueId = 0; queueId < CrashWriterMain.QUEUES; queueId++) {
            long max = store.getMaxOffsetInQueue(CrashWriterMain.TOPIC, queueId);
            Set<Long> seen = new HashSet<>();
            long next = 0;
            while (next < max) {
                GetMessageResult read = store.getMessages(CrashWriterMain.TOPIC, queueId, next, 64, 1 << 22,
                        TagFilter.ALL);
                read.messages().forEach(found -> seen.add(found.queueOffset()));
                next = read.nextBeginOffset();
            }
            assertEquals(max, seen.size(), "queue " + queueId + " has a gap below its max " + max);
        }
    }
}
