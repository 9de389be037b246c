package io.vrmq.remoting.transport;

import io.vertx.core.buffer.Buffer;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.LanguageCode;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.vrmq.remoting.protocol.CommandAssertions.assertSameCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cutting a byte stream into frames, however the stream arrives, and refusing lengths out of range. */
class FrameReaderTest {
    private static final int MAX_FRAME_BYTES = 4_096;
    private static final int MAX_HEADER_BYTES = 1_024;

    private final List<Buffer> frames = new ArrayList<>();
    private final List<String> malformed = new ArrayList<>();
    private final FrameReader reader = new FrameReader(MAX_FRAME_BYTES, frames::add, malformed::add);

    @Test
    void aStreamSplitInTwoAtEveryByteYieldsTheSameCommands() {
        List<RemotingCommand> commands = sampleCommands();
        Buffer stream = encodeAll(commands);
        for (int split = 0; split <= stream.length(); split++) {
            List<Buffer> received = new ArrayList<>();
            FrameReader splitReader = new FrameReader(MAX_FRAME_BYTES, received::add, malformed::add);

            splitReader.handle(stream.getBuffer(0, split));
            splitReader.handle(stream.getBuffer(split, stream.length()));

            assertCommands(commands, received, "split at byte " + split);
            assertFalse(splitReader.isInsideFrame(), "split at byte " + split);
        }
        assertTrue(malformed.isEmpty(), malformed.toString());
    }

    @Test
    void aStreamFedByteByByteYieldsTheSameCommands() {
        List<RemotingCommand> commands = sampleCommands();
        Buffer stream = encodeAll(commands);

        for (int i = 0; i < stream.length(); i++) {
            reader.handle(stream.getBuffer(i, i + 1));
        }

        assertCommands(commands, frames, "byte by byte");
        assertTrue(malformed.isEmpty(), malformed.toString());
    }

    @Test
    void aStreamInOneChunkYieldsTheSameCommands() {
        List<RemotingCommand> commands = sampleCommands();

        reader.handle(encodeAll(commands));

        assertCommands(commands, frames, "one chunk");
    }

    @Test
    void aPartFrameIsHeldUntilItsLastByteArrives() {
        Buffer frame = CommandCodec.encode(RemotingCommand.request(RequestCode.HEART_BEAT));

        reader.handle(frame.getBuffer(0, frame.length() - 1));

        assertTrue(frames.isEmpty());
        assertTrue(reader.isInsideFrame());
        reader.handle(frame.getBuffer(frame.length() - 1, frame.length()));
        assertEquals(1, frames.size());
        assertFalse(reader.isInsideFrame());
    }

    @Test
    void aChunkThatIsOneWholeFrameIsHandedOnWithoutACopy() {
        Buffer chunk = CommandCodec.encode(RemotingCommand.request(RequestCode.HEART_BEAT));

        reader.handle(chunk);
        chunk.setByte(chunk.length() - 1, (byte) 0x5A);

        assertEquals(1, frames.size());
        assertEquals(chunk.length() - 4, frames.get(0).length());
        assertEquals((byte) 0x5A, frames.get(0).getByte(frames.get(0).length() - 1), "the frame reads the chunk");
    }

    @Test
    void framesThatShareAChunkAreCopiesSoNoneKeepsItsNeighboursAlive() {
        List<RemotingCommand> commands = sampleCommands();
        Buffer chunk = encodeAll(commands);

        reader.handle(chunk);
        for (int i = 0; i < chunk.length(); i++) {
            chunk.setByte(i, (byte) 0);
        }

        assertCommands(commands, frames, "after the chunk was overwritten");
    }

    @Test
    void aFrameSpanningManyChunksLargerThanTheFirstGatheringBufferArrivesWhole() {
        int frameBytes = 200_000;
        byte[] body = new byte[frameBytes - 64];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        RemotingCommand command = new RemotingCommand(RequestCode.SEND_MESSAGE_V2, LanguageCode.JAVA, 513, 9, 0,
            null, Map.of("a", "PG"), Buffer.buffer(body), SerializeType.ROCKETMQ);
        Buffer stream = CommandCodec.encode(command);
        List<Buffer> received = new ArrayList<>();
        FrameReader largeReader = new FrameReader(2 * frameBytes, received::add, malformed::add);

        for (int start = 0; start < stream.length(); start += 1_000) {
            largeReader.handle(stream.getBuffer(start, Math.min(stream.length(), start + 1_000)));
        }

        assertEquals(1, received.size());
        assertSameCommand(command, CommandCodec.decode(received.get(0), MAX_HEADER_BYTES));
        assertFalse(largeReader.isInsideFrame());
        assertTrue(malformed.isEmpty(), malformed.toString());
    }

    @Test
    void aFrameOfExactlyMaxFrameBytesIsAccepted() {
        Buffer frame = Buffer.buffer().appendInt(MAX_FRAME_BYTES).appendBytes(new byte[MAX_FRAME_BYTES]);

        reader.handle(frame);

        assertEquals(1, frames.size());
        assertEquals(MAX_FRAME_BYTES, frames.get(0).length());
        assertTrue(malformed.isEmpty(), malformed.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, -1, Integer.MIN_VALUE, MAX_FRAME_BYTES + 1, Integer.MAX_VALUE})
    void aLengthOutOfRangeIsReportedOnceAndLaterInputIgnored(int frameLength) {
        Buffer good = CommandCodec.encode(RemotingCommand.request(RequestCode.HEART_BEAT));

        reader.handle(good.copy().appendInt(frameLength).appendBuffer(good));
        reader.handle(good);
        reader.handle(Buffer.buffer().appendInt(-5));

        assertEquals(1, frames.size(), "only the frame before the bad length");
        assertEquals(1, malformed.size(), malformed.toString());
        assertTrue(malformed.get(0).contains(String.valueOf(frameLength)), malformed.get(0));
    }

    @Test
    void aLengthOutOfRangeFedByteByByteIsReportedOnce() {
        Buffer stream = Buffer.buffer().appendInt(MAX_FRAME_BYTES + 1)
            .appendBuffer(CommandCodec.encode(RemotingCommand.request(RequestCode.HEART_BEAT)));

        for (int i = 0; i < stream.length(); i++) {
            reader.handle(stream.getBuffer(i, i + 1));
        }

        assertTrue(frames.isEmpty());
        assertEquals(1, malformed.size(), malformed.toString());
    }

    @Test
    void aFailureReportedByTheOwnerStopsReadingToo() {
        Buffer frame = CommandCodec.encode(RemotingCommand.request(RequestCode.HEART_BEAT));

        reader.fail("header did not decode");
        reader.fail("again");
        reader.handle(frame);

        assertTrue(frames.isEmpty());
        assertEquals(List.of("header did not decode"), malformed);
    }

    private static List<RemotingCommand> sampleCommands() {
        return List.of(
            new RemotingCommand(RequestCode.SEND_MESSAGE_V2, LanguageCode.JAVA, 513, 1, 0, null,
                Map.of("a", "PG", "b", "TopicTest"), Buffer.buffer("hello"), SerializeType.JSON),
            new RemotingCommand(ResponseCode.SUCCESS, LanguageCode.JAVA, 513, 1, RemotingCommand.RESPONSE_FLAG,
                null, Map.of("msgId", "7F00000100002A9F00000000000004D2"), null, SerializeType.ROCKETMQ),
            new RemotingCommand(RequestCode.PULL_MESSAGE, LanguageCode.GO, 401, 2, 0, "remark", null,
                Buffer.buffer(new byte[300]), SerializeType.ROCKETMQ),
            new RemotingCommand(RequestCode.UPDATE_CONSUMER_OFFSET, LanguageCode.JAVA, 513, 3,
                RemotingCommand.ONEWAY_FLAG, null, null, null, SerializeType.JSON));
    }

    private static Buffer encodeAll(List<RemotingCommand> commands) {
        Buffer stream = Buffer.buffer();
        commands.forEach(command -> stream.appendBuffer(CommandCodec.encode(command)));
        return stream;
    }

    private static void assertCommands(List<RemotingCommand> expected, List<Buffer> received, String how) {
        assertEquals(expected.size(), received.size(), how);
        for (int i = 0; i < expected.size(); i++) {
            assertSameCommand(expected.get(i), CommandCodec.decode(received.get(i), MAX_HEADER_BYTES));
        }
    }
}
