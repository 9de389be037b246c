package io.vrmq.remoting.protocol;

import io.vertx.core.buffer.Buffer;

/**
 * Turns {@link RemotingCommand}s into frames and back (layout in {@link Frame}). Stateless: any thread.
 *
 * <p>Encoding is split in two so that a large body is never copied: {@link #encodeHead} builds the length, header
 * word and header, and the caller writes the body buffer after it.
 */
public final class CommandCodec {
    /** The binary header of the broker's answers stays well under this (a JSON head is copied at its exact size). */
    private static final int BINARY_HEAD_CAPACITY_GUESS = 256;

    private CommandCodec() {
    }

    /** Frame length, header word and header; the body (if any) follows on the wire as its own buffer. */
    public static Buffer encodeHead(RemotingCommand command) {
        if (command.serializeType() == SerializeType.ROCKETMQ) {
            Buffer out = Buffer.buffer(BINARY_HEAD_CAPACITY_GUESS);
            out.appendInt(0).appendInt(0);
            BinaryHeaderCodec.encode(command, out);
            return framed(command, out, out.length() - Frame.FRAME_LENGTH_BYTES - Frame.HEADER_WORD_BYTES);
        }
        // Written into the thread's scratch array, then copied into a buffer of the exact size: no estimate of the
        // size (it was 5 % of the broker's CPU on an async send), no growth (benchmark/RESULTS.md, session 10
        // "sendcpu").
        JsonHeaderWriter.Scratch header = JsonHeaderWriter.encode(command);
        Buffer out = Buffer.buffer(Frame.FRAME_LENGTH_BYTES + Frame.HEADER_WORD_BYTES + header.length);
        out.appendInt(0).appendInt(0).appendBytes(header.bytes, 0, header.length);
        return framed(command, out, header.length);
    }

    /** Fills in the frame length and header word of a head whose header is written. */
    private static Buffer framed(RemotingCommand command, Buffer out, int headerLength) {
        if (headerLength > Frame.MAX_HEADER_LENGTH_FIELD) {
            throw new IllegalArgumentException("header of " + headerLength + " bytes does not fit the 24-bit field");
        }
        int bodyLength = command.hasBody() ? command.body().length() : 0;
        out.setInt(0, Frame.HEADER_WORD_BYTES + headerLength + bodyLength);
        out.setInt(Frame.FRAME_LENGTH_BYTES, Frame.headerWord(command.serializeType(), headerLength));
        return out;
    }

    /** The whole frame in one buffer (copies the body): for tests and small commands. */
    public static Buffer encode(RemotingCommand command) {
        Buffer frame = encodeHead(command);
        return command.hasBody() ? frame.appendBuffer(command.body()) : frame;
    }

    /**
     * Decodes the bytes that follow a frame's length field.
     *
     * @param frame          exactly frameLength bytes: header word, header, body
     * @param maxHeaderBytes the largest header we accept
     * @throws MalformedFrameException when the frame cannot be trusted (its connection must be closed)
     */
    public static RemotingCommand decode(Buffer frame, int maxHeaderBytes) {
        if (frame.length() < Frame.MIN_FRAME_LENGTH) {
            throw new MalformedFrameException("frame of " + frame.length() + " bytes has no header word");
        }
        int headerWord = frame.getInt(0);
        SerializeType type = SerializeType.ofCode(Frame.serializeTypeCode(headerWord));
        int headerLength = Frame.headerLength(headerWord);
        int bodyStart = Frame.HEADER_OFFSET_IN_FRAME + headerLength;
        if (bodyStart > frame.length()) {
            throw new MalformedFrameException("header length " + headerLength + " runs past the frame of "
                + frame.length() + " bytes");
        }
        if (headerLength > maxHeaderBytes) {
            throw new MalformedFrameException("header length " + headerLength + " > maxHeaderBytes "
                + maxHeaderBytes);
        }
        Buffer body = bodyStart < frame.length() ? frame.slice(bodyStart, frame.length()) : null;
        if (type == SerializeType.ROCKETMQ) {
            return BinaryHeaderCodec.decode(frame, Frame.HEADER_OFFSET_IN_FRAME, headerLength, body);
        }
        return JsonHeaderCodec.decode(frame, Frame.HEADER_OFFSET_IN_FRAME, headerLength, body);
    }
}
