package io.vrmq.remoting.transport;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vrmq.remoting.protocol.RemotingCommand;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A real {@link RemotingServer} on 127.0.0.1, port 0, plus the processors and clients the transport ITs share. */
record TestServer(RemotingServer server, int port) {
    static final String HOST = "127.0.0.1";
    /** Small enough to build an oversized frame cheaply; the request timeout is far above any test's wait. */
    static final RemotingLimits LIMITS = new RemotingLimits(64 * 1024, 16 * 1024, 5_000L, 1_024);
    static final int DEFAULT_MAX_CONNECTIONS = 64;

    /** Test request codes, far from the protocol's. */
    static final int ECHO = 9_001;
    static final int NEVER_ANSWERS = 9_002;
    static final int CLOSES_CONNECTION = 9_003;
    static final int NOT_REGISTERED = 9_999;

    static Future<TestServer> start(Vertx vertx, ProcessorTable processors) {
        return start(vertx, processors, DEFAULT_MAX_CONNECTIONS);
    }

    static Future<TestServer> start(Vertx vertx, ProcessorTable processors, int maxConnections) {
        return start(vertx, processors, maxConnections, 0);
    }

    static Future<TestServer> start(Vertx vertx, ProcessorTable processors, int maxConnections, int port) {
        RemotingServer server = new RemotingServer(vertx, new NetServerOptions().setHost(HOST), LIMITS,
            maxConnections, new AtomicInteger(), processors, RemotingObserver.NONE);
        return server.listen(HOST, port).map(boundPort -> new TestServer(server, boundPort));
    }

    /** ECHO, NEVER_ANSWERS and CLOSES_CONNECTION. */
    static ProcessorTable.Builder standardProcessors() {
        return ProcessorTable.builder()
            .register(ECHO, TestServer::echo)
            .register(NEVER_ANSWERS, (connection, request) -> Promise.<RemotingCommand>promise().future())
            .register(CLOSES_CONNECTION, (connection, request) -> {
                connection.close();
                return Promise.<RemotingCommand>promise().future();
            });
    }

    static RemotingClient client(Vertx vertx) {
        return client(vertx, ProcessorTable.empty());
    }

    static RemotingClient client(Vertx vertx, ProcessorTable processors) {
        return new RemotingClient(vertx, new NetClientOptions().setConnectTimeout(3_000).setTcpNoDelay(true), LIMITS,
            processors, RemotingObserver.NONE);
    }

    /** Answers SUCCESS with the request's header fields, body and header type, plus the type it arrived in. */
    static Future<RemotingCommand> echo(RemotingConnection connection, RemotingCommand request) {
        Map<String, String> ext = request.extFieldsCopy();
        ext.put("requestSerializeType", request.serializeType().name());
        return Future.succeededFuture(RemotingCommand.success(request, ext, request.body()));
    }

    String address() {
        return HOST + ":" + port;
    }
}
