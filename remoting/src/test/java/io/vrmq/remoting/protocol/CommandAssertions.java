package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Field-by-field comparison of commands ({@link RemotingCommand} has no equals) and frame helpers for tests. */
public final class CommandAssertions {
    /** The header limit the codec tests decode with: far above any header they build. */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    private CommandAssertions() {
    }

    public static void assertSameCommand(RemotingCommand expected, RemotingCommand actual) {
        assertEquals(expected.code(), actual.code(), "code");
        assertEquals(expected.language(), actual.language(), "language");
        assertEquals(expected.version(), actual.version(), "version");
        assertEquals(expected.opaque(), actual.opaque(), "opaque");
        assertEquals(expected.flag(), actual.flag(), "flag");
        assertEquals(expected.remark(), actual.remark(), "remark");
        assertEquals(expected.extFields(), actual.extFields(), "extFields");
        assertEquals(expected.serializeType(), actual.serializeType(), "serializeType");
        if (expected.body() == null) {
            assertNull(actual.body(), "body");
        } else {
            assertEquals(expected.body(), actual.body(), "body");
        }
    }

    /** The bytes after a whole frame's length field, checking that the field counts exactly them. */
    public static Buffer afterLengthField(Buffer wholeFrame) {
        assertEquals(wholeFrame.length() - Frame.FRAME_LENGTH_BYTES, wholeFrame.getInt(0), "frame length field");
        return wholeFrame.slice(Frame.FRAME_LENGTH_BYTES, wholeFrame.length());
    }

    /** Encodes, then decodes what follows the length field. */
    public static RemotingCommand roundTrip(RemotingCommand command) {
        return CommandCodec.decode(afterLengthField(CommandCodec.encode(command)),
            MAX_HEADER_BYTES);
    }

    /** Header word, header bytes and body: what {@link CommandCodec#decode} takes. */
    public static Buffer frameAfterLength(int serializeTypeCode, byte[] header, byte[] body) {
        return Buffer.buffer()
            .appendInt((serializeTypeCode << 24) | header.length)
            .appendBytes(header)
            .appendBytes(body);
    }
}
