package io.vrmq.benchmark.codec;

import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.processor.SendRequest;
import io.vrmq.remoting.protocol.CommandCodec;
import io.vrmq.remoting.protocol.Frame;
import io.vrmq.remoting.protocol.LanguageCode;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.protocol.SerializeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The remoting codec on the send path, per frame: decoding a SEND_MESSAGE_V2 request as the official client sends
 * it (its short header names, 1 KiB body) and encoding the head of the answer. Run with {@code -prof gc} to see the
 * bytes allocated per frame: the figure the issue asks for, since the codec runs on the event loop for every message.
 *
 * <p>Both header encodings are measured: the official Java client sends JSON headers by default, the
 * {@code ROCKETMQ} binary form is what a client asks for with {@code rocketmq.serialize.type=ROCKETMQ}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
@State(Scope.Thread)
public class CommandCodecBenchmark {
    private static final int BODY_BYTES = 1024;
    private static final int MAX_HEADER_BYTES = 64 * 1024;

    @Param({"JSON", "ROCKETMQ"})
    public String headerType;

    private Buffer sendRequestFrame;
    private RemotingCommand sendRequest;
    private RemotingCommand sendResponse;

    @Setup
    public void frames() {
        SerializeType type = SerializeType.valueOf(headerType);
        sendRequest = new RemotingCommand(RequestCode.SEND_MESSAGE_V2, LanguageCode.JAVA, 513, 42, 0, null,
            sendHeaderV2(), Buffer.buffer(new byte[BODY_BYTES]), type);
        Buffer whole = CommandCodec.encode(sendRequest);
        sendRequestFrame = whole.slice(Frame.FRAME_LENGTH_BYTES, whole.length());
        sendResponse = RemotingCommand.response(sendRequest, ResponseCode.SUCCESS, null, sendResponseHeader(), null);
    }

    /** What the event loop does with each frame the reader has cut out: header parsed, body sliced. */
    @Benchmark
    public RemotingCommand decodeSendRequest() {
        return CommandCodec.decode(sendRequestFrame, MAX_HEADER_BYTES);
    }

    /**
     * Decoding plus what the broker's send processor reads of the header ({@link SendRequest}): the figure that
     * counts for the send path, since a header read in place turns into strings only when a field is asked for.
     */
    @Benchmark
    public SendRequest decodeSendRequestAndReadHeader() {
        return SendRequest.decode(CommandCodec.decode(sendRequestFrame, MAX_HEADER_BYTES));
    }

    /** The answer's length, header word and header (the answer has no body). */
    @Benchmark
    public Buffer encodeSendResponse() {
        return CommandCodec.encodeHead(sendResponse);
    }

    /** A whole request built, encoded and decoded: the round a client-side codec would also pay. */
    @Benchmark
    public RemotingCommand encodeThenDecodeSendRequest() {
        Buffer whole = CommandCodec.encode(sendRequest);
        return CommandCodec.decode(whole.slice(Frame.FRAME_LENGTH_BYTES, whole.length()), MAX_HEADER_BYTES);
    }

    /** SendMessageRequestHeaderV2's one-letter names as the 5.5.0 client fills them for a plain message. */
    private static Map<String, String> sendHeaderV2() {
        Map<String, String> header = new LinkedHashMap<>();
        header.put("a", "BenchProducerGroup");
        header.put("b", "BenchTopic");
        header.put("c", "TBW102");
        header.put("d", "4");
        header.put("e", "3");
        header.put("f", "0");
        header.put("g", "1764627600000");
        header.put("h", "0");
        header.put("i", "KEYS\u0001order-12345\u0002UNIQ_KEY\u00017F0000010D2A18B4AAC2123456780000\u0002WAIT\u0001true");
        header.put("j", "0");
        header.put("k", "false");
        header.put("m", "false");
        header.put("n", "broker-a");
        return header;
    }

    /** SendMessageResponseHeader as our broker answers a stored message. */
    private static Map<String, String> sendResponseHeader() {
        Map<String, String> header = new LinkedHashMap<>();
        header.put("msgId", "7F00000100002A9F0000000000123456");
        header.put("queueId", "3");
        header.put("queueOffset", "123456");
        header.put("MSG_REGION", "DefaultRegion");
        header.put("TRACE_ON", "true");
        return header;
    }
}
