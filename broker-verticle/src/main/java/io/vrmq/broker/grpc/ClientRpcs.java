package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerResponse;
import io.vrmq.broker.BrokerContext;
import io.vrmq.grpc.proto.ClientType;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.FilterType;
import io.vrmq.grpc.proto.HeartbeatRequest;
import io.vrmq.grpc.proto.HeartbeatResponse;
import io.vrmq.grpc.proto.MessagingServiceGrpcService;
import io.vrmq.grpc.proto.NotifyClientTerminationRequest;
import io.vrmq.grpc.proto.NotifyClientTerminationResponse;
import io.vrmq.grpc.proto.Resource;
import io.vrmq.grpc.proto.Settings;
import io.vrmq.grpc.proto.SubscriptionEntry;
import io.vrmq.grpc.proto.TelemetryCommand;
import io.vrmq.remoting.body.ConsumerData;
import io.vrmq.remoting.body.HeartbeatData;
import io.vrmq.remoting.body.ProducerData;
import io.vrmq.remoting.body.SubscriptionData;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The RPCs of a client's life: Telemetry (the client's settings in, the merged settings back, and later the
 * server's commands out), Heartbeat and NotifyClientTermination. A client becomes known to the broker as Apache's
 * proxy makes it known: a HEART_BEAT with producer group = each published topic (where transaction checks go) or
 * with its consumer group and subscriptions (SIMPLE: CONSUME_ACTIVELY, PUSH: CONSUME_PASSIVELY), sent when its
 * settings arrive and at each of its heartbeats. The client's answers to admin questions ({@link ClientCommands})
 * come on its Telemetry stream too. Runs on the endpoint's event loop.
 */
final class ClientRpcs {
    private static final Logger log = LoggerFactory.getLogger(ClientRpcs.class);

    private final BrokerContext broker;
    private final GrpcConfig config;
    private final GrpcSessions sessions;
    private final BrokerLink link;
    private final GrpcAuth auth;
    private final HandleRenewals renewals;
    private final ClientCommands commands;
    private final GrpcMeters meters;

    ClientRpcs(BrokerContext broker, GrpcConfig config, GrpcSessions sessions, BrokerLink link,
               HandleRenewals renewals, ClientCommands commands, GrpcMeters meters, GrpcAuth auth) {
        this.broker = broker;
        this.config = config;
        this.sessions = sessions;
        this.link = link;
        this.renewals = renewals;
        this.commands = commands;
        this.meters = meters;
        this.auth = auth;
    }

    void bindInto(GrpcServer server) {
        server.callHandler(MessagingServiceGrpcService.Telemetry, request -> {
            GrpcCall call = GrpcCall.of(request);
            GrpcServerResponse<TelemetryCommand, TelemetryCommand> stream = request.response();
            if (!call.hasClientId()) {
                stream.status(GrpcStatus.INVALID_ARGUMENT).statusMessage(GrpcCall.CLIENT_ID + " is required").end();
                return;
            }
            request.handler(command -> onCommand(call, stream, command));
            request.endHandler(ended -> {
                sessions.streamClosed(call.clientId(), stream);
                stream.end();
            });
            request.exceptionHandler(error -> sessions.streamClosed(call.clientId(), stream));
        });
        Unary.bind(server, MessagingServiceGrpcService.Heartbeat, new Unary.Shape<>(
                status -> HeartbeatResponse.newBuilder().setStatus(status).build(), HeartbeatResponse::getStatus),
            meters, auth.guard(this::heartbeat));
        Unary.bind(server, MessagingServiceGrpcService.NotifyClientTermination, new Unary.Shape<>(
                status -> NotifyClientTerminationResponse.newBuilder().setStatus(status).build(),
                NotifyClientTerminationResponse::getStatus),
            meters, auth.guard(this::terminate));
    }

    private void onCommand(GrpcCall call, GrpcServerResponse<TelemetryCommand, TelemetryCommand> stream,
                           TelemetryCommand command) {
        long startNanos = System.nanoTime();
        if (command.hasThreadStackTrace()) {
            commands.answered(command.getThreadStackTrace().getNonce(), command.getStatus(),
                command.getThreadStackTrace().getThreadStackTrace());
            return;
        }
        if (command.hasVerifyMessageResult()) {
            commands.answered(command.getVerifyMessageResult().getNonce(), command.getStatus(), null);
            return;
        }
        if (!command.hasSettings()) {
            log.debug("telemetry from {}: {} ignored", call.clientId(), command.getCommandCase());
            return;
        }
        try {
            auth.check(call, command);   // authenticated only (see GrpcResources)
        } catch (GrpcStatusException refused) {
            // A Telemetry stream has no reply message to carry the status: the stream ends with the gRPC one.
            meters.answered("Telemetry", refused.status().getCode(), startNanos);
            stream.status(refused.status().getCode() == Code.FORBIDDEN ? GrpcStatus.PERMISSION_DENIED
                : GrpcStatus.UNAUTHENTICATED).statusMessage(refused.getMessage()).end();
            return;
        }
        Settings settings;
        try {
            settings = SettingsReply.of(command.getSettings(), broker, config);
        } catch (GrpcStatusException refused) {
            // The proxy ends the stream with INVALID_ARGUMENT for a client error, INTERNAL otherwise.
            meters.answered("Telemetry", refused.status().getCode(), startNanos);
            stream.status(GrpcStatus.INVALID_ARGUMENT).statusMessage(refused.getMessage()).end();
            return;
        }
        GrpcSessions.Session session = new GrpcSessions.Session(call.clientId(), settings, call.language(),
            call.clientVersion(), call.remoteAddress(), stream);
        sessions.put(session);
        stream.write(TelemetryCommand.newBuilder().setStatus(Statuses.ok()).setSettings(settings).build());
        meters.answered("Telemetry", Code.OK, startNanos);
        register(session).onFailure(error -> log.warn("client {} ({}) not registered with the broker: {}",
            call.clientId(), settings.getClientType(), error.toString()));
    }

    private Future<HeartbeatResponse> heartbeat(GrpcCall call, HeartbeatRequest request) {
        GrpcSessions.Session session = sessions.get(call.clientId());
        if (session == null) {
            throw new GrpcStatusException(Code.UNRECOGNIZED_CLIENT_TYPE, "no settings from client "
                + call.clientId() + ": it must open its Telemetry stream first");
        }
        return register(session).map(reply -> HeartbeatResponse.newBuilder()
            .setStatus(Statuses.fromReply(reply)).build());
    }

    private Future<NotifyClientTerminationResponse> terminate(GrpcCall call, NotifyClientTerminationRequest request) {
        // The broker's channels of gRPC clients share one connection: they expire after channelExpiredTimeout.
        sessions.remove(call.clientId());
        renewals.forget(call.clientId());
        return Future.succeededFuture(NotifyClientTerminationResponse.newBuilder().setStatus(Statuses.ok()).build());
    }

    /** HEART_BEAT to the broker for this client, as the proxy sends it. */
    private Future<RemotingCommand> register(GrpcSessions.Session session) {
        Settings settings = session.settings();
        Set<ProducerData> producers = new LinkedHashSet<>();
        Set<ConsumerData> consumers = new LinkedHashSet<>();
        if (settings.hasPublishing()) {
            for (Resource topic : settings.getPublishing().getTopicsList()) {
                producers.add(new ProducerData(topic.getName()));
            }
        }
        if (settings.hasSubscription()) {
            long version = System.currentTimeMillis();
            Set<SubscriptionData> subscriptions = new LinkedHashSet<>();
            for (SubscriptionEntry entry : settings.getSubscription().getSubscriptionsList()) {
                subscriptions.add(subscription(entry, version));
            }
            String consumeType = settings.getClientType() == ClientType.PUSH_CONSUMER ? "CONSUME_PASSIVELY"
                : "CONSUME_ACTIVELY";
            consumers.add(new ConsumerData(settings.getSubscription().getGroup().getName(), consumeType,
                "CLUSTERING", "CONSUME_FROM_LAST_OFFSET", subscriptions, false));
        }
        HeartbeatData heartbeat = new HeartbeatData(session.clientId(), producers, consumers, 0, false);
        return link.call(RemotingCommand.request(RequestCode.HEART_BEAT, null, broker.json().encode(heartbeat)));
    }

    private static SubscriptionData subscription(SubscriptionEntry entry, long version) {
        String topic = entry.getTopic().getName();
        String expression = entry.getExpression().getExpression();
        if (entry.getExpression().getType() == FilterType.SQL) {
            return new SubscriptionData(topic, expression, null, null, version, "SQL92", false);
        }
        return SubscriptionData.ofTags(topic, expression, version);
    }
}
