package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vrmq.broker.auth.AuthConfig;
import io.vrmq.broker.auth.AuthException;
import io.vrmq.broker.auth.AuthMetadata;
import io.vrmq.broker.auth.Authorizer;
import io.vrmq.broker.auth.GrpcAuthorization;
import io.vrmq.grpc.proto.Code;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.BiFunction;

/**
 * ACL 2.0 on the gRPC endpoint, with the broker's own users, ACLs and evaluator: each call's authorization header
 * is authenticated ({@link GrpcAuthorization}) and its request authorized for what it needs
 * ({@link GrpcResources}), before anything reaches the broker. Refusals are the reply's status, as Apache's proxy
 * answers: UNAUTHORIZED (40100) when the caller is not who it says, FORBIDDEN (40300) when it may not.
 * <p>
 * Once a call passed, {@link BrokerLink} signs its remoting requests with innerClientAuthenticationCredentials (the
 * broker's own Super user, as its outbound client signs), so the remoting guard lets them through: the trust lives
 * in a secret only this process holds, and no connection or address is trusted. Without those credentials the link
 * cannot pass the guard, so every call is refused with a message that names the key. Any thread may call it.
 */
final class GrpcAuth {
    private static final Logger log = LoggerFactory.getLogger(GrpcAuth.class);
    static final String NO_INNER_CREDENTIALS = "the broker has no innerClientAuthenticationCredentials, which its "
        + "gRPC endpoint needs to reach it with ACL on";

    private final AuthConfig config;
    private final GrpcAuthorization authentication;
    private final Authorizer authorizer;

    GrpcAuth(AuthConfig config, AuthMetadata metadata) {
        this.config = config;
        this.authentication = new GrpcAuthorization(metadata);
        this.authorizer = new Authorizer(metadata);
        if (config.isEnforcing() && config.innerClientUser() == null) {
            log.warn("gRPC endpoint: every call will be refused: {}", NO_INNER_CREDENTIALS);
        }
    }

    /** {@code handler}, run only for a call that passes {@link #check}; a refusal fails the future. */
    <Q, R> BiFunction<GrpcCall, Q, Future<R>> guard(BiFunction<GrpcCall, Q, Future<R>> handler) {
        return (call, request) -> {
            check(call, request);
            return handler.apply(call, request);
        };
    }

    /** @throws GrpcStatusException UNAUTHORIZED or FORBIDDEN when {@code call} may not make {@code request} */
    void check(GrpcCall call, Object request) {
        if (!config.isEnforcing()) {
            return;
        }
        if (config.innerClientUser() == null) {
            throw new GrpcStatusException(Code.UNAUTHORIZED, NO_INNER_CREDENTIALS);
        }
        String username;
        try {
            username = config.authenticationEnabled()
                ? authentication.authenticate(call.authorization(), call.dateTime())
                : GrpcAuthorization.accessKey(call.authorization());
        } catch (AuthException refused) {
            log.debug("[AUTH] gRPC call from {} ({}) not authenticated: {}", call.clientId(), call.remoteAddress(),
                refused.getMessage());
            throw new GrpcStatusException(Code.UNAUTHORIZED, refused.getMessage());
        }
        if (!config.authorizationEnabled()) {
            return;
        }
        try {
            authorizer.authorize(username, GrpcResources.of(request), call.remoteIp());
        } catch (AuthException refused) {
            log.debug("[AUTH] gRPC call from {} ({}, AccessKey {}) refused: {}", call.clientId(),
                call.remoteAddress(), username, refused.getMessage());
            throw new GrpcStatusException(Code.FORBIDDEN, refused.getMessage());
        }
    }
}
