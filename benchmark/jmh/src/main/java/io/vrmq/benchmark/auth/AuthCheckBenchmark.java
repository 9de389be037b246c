package io.vrmq.benchmark.auth;

import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.auth.AccessRequest;
import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.Action;
import io.vrmq.broker.auth.AuthMetadata;
import io.vrmq.broker.auth.Authenticator;
import io.vrmq.broker.auth.Authorizer;
import io.vrmq.broker.auth.Decision;
import io.vrmq.broker.auth.Policy;
import io.vrmq.broker.auth.PolicyEntry;
import io.vrmq.broker.auth.PolicyType;
import io.vrmq.broker.auth.RequestResources;
import io.vrmq.broker.auth.Resource;
import io.vrmq.broker.auth.User;
import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What ACL 2.0 adds to one SEND_MESSAGE_V2 on the broker's event loop: the HMAC check of its signature
 * (authentication) and the ACL decision for its topic (authorization, a Normal user with 20 entries), against a
 * baseline of building the request's resources only. Bodies of 1 KiB and 64 KiB; ops/s = requests checked/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx256m", "-XX:+UseSerialGC"})
@State(Scope.Thread)
public class AuthCheckBenchmark {
    @Param({"1024", "65536"})
    public int bodyBytes;

    private Authenticator authenticator;
    private Authorizer authorizer;
    private RequestResources resources;
    private RemotingCommand signedSend;

    @Setup
    public void setUp() {
        AuthMetadata metadata = new AuthMetadata();
        metadata.createUser(new User("bench", "bench-secret", null, null));
        List<PolicyEntry> entries = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            entries.add(new PolicyEntry(Resource.parse("Topic:other-" + i), List.of(Action.PUB), List.of(),
                Decision.ALLOW));
        }
        entries.add(new PolicyEntry(Resource.parse("Topic:bench*"), List.of(Action.PUB), List.of(), Decision.ALLOW));
        metadata.mergeAcl(new Acl("bench", List.of(new Policy(PolicyType.CUSTOM, entries))));
        authenticator = new Authenticator(metadata);
        authorizer = new Authorizer(metadata);
        resources = new RequestResources(new RemotingJson(), "BenchCluster");
        Map<String, String> header = new HashMap<>(Map.of("a", "bench_producer", "b", "benchTopic", "c", "TBW102",
            "d", "4", "e", "1", "f", "0", "g", Long.toString(System.currentTimeMillis()), "h", "0",
            "i", "UNIQ_KEY\u00017F000001000012345678\u0002WAIT\u0001true\u0002", "j", "0"));
        header.put("k", "false");
        header.put("m", "false");
        signedSend = RequestSignature.sign(RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, header,
            Buffer.buffer(new byte[bodyBytes])), "bench", "bench-secret");
    }

    @Benchmark
    public List<AccessRequest> resourcesOnly() {
        return resources.of(signedSend);
    }

    @Benchmark
    public RemotingCommand authenticate() {
        authenticator.authenticate(signedSend);
        return signedSend;
    }

    @Benchmark
    public RemotingCommand authenticateAndAuthorize() {
        authenticator.authenticate(signedSend);
        authorizer.authorize("bench", resources.of(signedSend), "127.0.0.1");
        return signedSend;
    }
}
