package io.vrmq.broker.processor;

import io.vrmq.broker.trace.TraceStamp;
import io.vrmq.remoting.message.MessageConst;
import io.vrmq.remoting.message.MessageProperties;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A plain send's properties on the broker's send path, both ways in one run: the map path (parse into a map, add
 * CLUSTER and the trace stamp, format, read WAIT and UNIQ_KEY) and the in-place scan that replaces it for plain
 * messages ({@link PlainSendProperties}). The text is the official 5.5.0 producer's (captured frame). In this package
 * because the scan is package-private. Run with {@code -prof gc} for the bytes per send.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
@State(Scope.Thread)
public class SendPropertiesBenchmark {
    private static final String CLUSTER = "DefaultCluster";
    private static final String SUFFIX = PlainSendProperties.brokerSuffix(CLUSTER, TraceStamp.DEFAULT_REGION,
        TraceStamp.TRACE_ON);

    public String sent = "KEYS\u0001order-12345\u0002UNIQ_KEY\u00017F0000010D2A18B4AAC2123456780000\u0002"
        + "WAIT\u0001true\u0002TAGS\u0001TagA";

    @Benchmark
    public void mapPath(Blackhole out) {
        Map<String, String> properties = MessageProperties.parse(sent);
        properties.put(MessageConst.CLUSTER, CLUSTER);
        TraceStamp.stamp(properties);
        out.consume(MessageProperties.format(properties));
        out.consume(!"false".equals(properties.get(MessageConst.WAIT_STORE_MSG_OK)));
        out.consume(properties.get(MessageConst.UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
    }

    @Benchmark
    public PlainSendProperties inPlace() {
        return PlainSendProperties.scanOrNull(sent, SUFFIX);
    }
}
