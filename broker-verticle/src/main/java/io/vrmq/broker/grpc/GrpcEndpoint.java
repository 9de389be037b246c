package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.ext.web.Router;
import io.vertx.grpc.server.GrpcServer;
import io.vrmq.broker.BrokerContext;
import io.vrmq.broker.auth.server.AuthService;
import io.vrmq.broker.pop.PopConfig;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.QueryAssignmentResponse;
import io.vrmq.grpc.proto.QueryRouteResponse;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.tls.ServerTls;
import io.vrmq.remoting.tls.TlsSettings;
import io.vrmq.remoting.transport.ProcessorTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The broker's RocketMQ 5 gRPC endpoint ({@code apache.rocketmq.v2.MessagingService}, what Apache serves from its
 * proxy on port 8081), so the 5.x SDKs of every language talk to this broker directly. An HTTP/2 server on the
 * broker's Vert.x: requests with a gRPC content type go to the gRPC server, others get a plain 404. Served: QueryRoute,
 * QueryAssignment, Heartbeat, Telemetry, NotifyClientTermination, SendMessage, EndTransaction, RecallMessage,
 * ReceiveMessage, AckMessage, ChangeInvisibleDuration, ForwardMessageToDeadLetterQueue; every other RPC answers
 * UNIMPLEMENTED, as the proxy answers the pull-style ones. The work is done by the broker's own processors over {@link BrokerLink}; what
 * the broker asks clients (transaction checks, admin questions) goes out on their Telemetry streams.
 * <p>
 * TLS follows the remoting ports' {@code tls.server.mode}: disabled serves plain HTTP/2 only, straight from the HTTP
 * server; permissive and enforcing put a {@link GrpcTlsFront} on the port (TLS and plain on one port, plain refused
 * when enforcing), with the same certificate settings and ALPN "h2".
 * <p>
 * Created, started and stopped by the broker verticle on its context; the handlers run on that event loop.
 */
public final class GrpcEndpoint {
    private static final Logger log = LoggerFactory.getLogger(GrpcEndpoint.class);
    private static final String GRPC_CONTENT_TYPE = "application/grpc";
    /** Below the broker's 10 s wait for a consumer's answer to an admin question, so the admin gets ours. */
    private static final long CLIENT_ANSWER_TIMEOUT_MS = 9_000;

    private final Vertx vertx;
    private final BrokerContext broker;
    private final GrpcConfig config;
    private final PopConfig popConfig;
    private final TlsSettings tls;
    private final GrpcAuth auth;
    private final GrpcSessions sessions = new GrpcSessions();
    private final BrokerLink link;
    private final ClientCommands commands;
    private HandleRenewals renewals;
    private HttpServer httpServer;
    private GrpcTlsFront front;
    private volatile int boundPort = GrpcConfig.DISABLED_PORT;

    /**
     * @param brokerListenPort the broker's bound remoting port, which the endpoint calls on loopback
     * @param tls the broker's TLS settings: the gRPC port's TLS, and the link's (TLS when the broker enforces it)
     * @param authService the broker's users and ACLs: each call is checked against them ({@link GrpcAuth}), and
     *                    the link signs with its inner credentials
     */
    public GrpcEndpoint(Vertx vertx, BrokerContext broker, GrpcConfig config, PopConfig popConfig,
                        int brokerListenPort, TlsSettings tls, AuthService authService) {
        this.vertx = vertx;
        this.broker = broker;
        this.config = config;
        this.popConfig = popConfig;
        this.tls = tls;
        this.auth = new GrpcAuth(authService.config(), authService.metadata());
        this.commands = new ClientCommands(vertx, sessions, broker.json(), CLIENT_ANSWER_TIMEOUT_MS);
        this.link = new BrokerLink(vertx, broker.config().limits(), tls, authService.outgoingSigner(),
            BrokerLink.loopbackAddress(broker.config().bindAddress(), brokerListenPort), ProcessorTable.builder()
                .register(RequestCode.CHECK_TRANSACTION_STATE, new TransactionChecks(sessions))
                .register(commands, RequestCode.GET_CONSUMER_RUNNING_INFO, RequestCode.CONSUME_MESSAGE_DIRECTLY)
                .build());
    }

    /** Listens unless grpcListenPort is -1; completes with the bound port (-1 when off). */
    public Future<Integer> start() {
        if (!config.isEnabled()) {
            return Future.succeededFuture(GrpcConfig.DISABLED_PORT);
        }
        GrpcServer grpc = GrpcServer.server(vertx, GrpcListenOptions.grpc(config));
        broker.clients().keepOpen(connection -> link.isPeer(connection.remoteSocketAddress()));
        renewals = new HandleRenewals(vertx, config, sessions, new PopCalls(link));
        bind(grpc);
        return ServerTls.create(vertx, tls, "gRPC endpoint", List.of("h2")).compose(serverTls -> {
            if (serverTls == null) {
                httpServer = vertx.createHttpServer(GrpcListenOptions.http(config, broker.config().bindAddress()));
                return httpServer.requestHandler(request -> route(grpc, request)).listen(config.grpcListenPort())
                    .map(HttpServer::actualPort);
            }
            httpServer = vertx.createHttpServer(GrpcListenOptions.behindFront(
                GrpcListenOptions.http(config, GrpcTlsFront.INNER_HOST)));
            front = new GrpcTlsFront(vertx, serverTls);
            return httpServer.requestHandler(request -> route(grpc, request)).listen(0)
                .compose(inner -> front.listen(broker.config().bindAddress(), config.grpcListenPort(),
                    inner.actualPort()));
        })
            .map(port -> {
                boundPort = port;
                renewals.start();
                log.info("gRPC endpoint (RocketMQ 5 SDKs) listening on {}:{}", broker.config().bindAddress(),
                    boundPort);
                return boundPort;
            });
    }

    /** Mounts {@code GET /api/v1/grpc/clients} on the broker's admin API. */
    public void mountAdminRoutes(Router router) {
        new GrpcAdminRoutes(sessions, boundPort).mount(router);
    }

    /** The bound port, or -1 when the endpoint is off or not started. */
    public int port() {
        return boundPort;
    }

    /**
     * Ends every Telemetry stream (they would otherwise hold the shutdown for its whole grace), lets calls in flight
     * finish within {@code graceMs}, then closes the link to the broker.
     */
    public Future<Void> stop(long graceMs) {
        if (httpServer == null) {
            return link.close();
        }
        renewals.stop();
        for (GrpcSessions.Session session : sessions.all()) {
            if (session.telemetry() != null) {
                session.telemetry().end();
            }
        }
        // The HTTP server first: its GOAWAY and last answers still travel through the front's pipes.
        return httpServer.shutdown(graceMs, TimeUnit.MILLISECONDS)
            .eventually(() -> front == null ? Future.succeededFuture() : front.shutdown(0))
            .eventually(link::close);
    }

    private void bind(GrpcServer grpc) {
        GrpcMeters meters = new GrpcMeters(broker.metrics().registry(), sessions);
        Routes routes = new Routes(broker, this::port);
        Unary.bind(grpc, MessagingServiceGrpcService.QueryRoute, new Unary.Shape<>(
                status -> QueryRouteResponse.newBuilder().setStatus(status).build(), QueryRouteResponse::getStatus),
            meters, auth.guard((call, request) -> Future.succeededFuture(routes.queryRoute(request))));
        Unary.bind(grpc, MessagingServiceGrpcService.QueryAssignment, new Unary.Shape<>(
                status -> QueryAssignmentResponse.newBuilder().setStatus(status).build(),
                QueryAssignmentResponse::getStatus),
            meters, auth.guard((call, request) -> Future.succeededFuture(routes.queryAssignment(request))));
        new ClientRpcs(broker, config, sessions, link, renewals, commands, meters, auth).bindInto(grpc);
        new SendRpcs(broker, link, meters, auth).bindInto(grpc);
        new RecallRpc(broker, link, meters, auth).bindInto(grpc);
        new ReceiveRpc(broker, config, popConfig, link, renewals, meters, auth).bindInto(grpc);
        new AckRpcs(broker, popConfig, link, new PopCalls(link), renewals, meters, auth).bindInto(grpc);
        // PullMessage, UpdateOffset, GetOffset, QueryOffset (as Apache's proxy), SyncLiteSubscription.
        grpc.callHandler(request -> request.response().status(GrpcStatus.UNIMPLEMENTED)
            .statusMessage(request.fullMethodName() + " is not served by this broker").end());
    }

    private static void route(GrpcServer grpc, HttpServerRequest request) {
        String contentType = request.getHeader("content-type");
        if (contentType != null && contentType.startsWith(GRPC_CONTENT_TYPE)) {
            grpc.handle(request);
        } else {
            request.response().setStatusCode(404).putHeader("content-type", "text/plain")
                .end("this is the broker's gRPC endpoint (apache.rocketmq.v2.MessagingService)\n");
        }
    }
}
