package io.vrmq.broker.auth.server;

import io.vertx.core.net.SocketAddress;
import io.vrmq.broker.auth.AuthConfig;
import io.vrmq.broker.auth.AuthException;
import io.vrmq.broker.auth.Authenticator;
import io.vrmq.broker.auth.Authorizer;
import io.vrmq.broker.auth.RequestResources;
import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's request check, as Apache's pipeline runs it before every processor on the main and fast ports:
 * authentication first, then authorization, each skipped when off or for a whitelisted code. A refusal is
 * NO_PERMISSION (16) with Apache's remark and no ext fields, so the processor never runs and nothing is stored.
 * Installed only when a check is on. Runs on the connection's event loop: in-memory lookups and one HMAC.
 */
public final class AuthGuard implements RequestGuard {
    private static final Logger log = LoggerFactory.getLogger(AuthGuard.class);

    private final AuthConfig config;
    private final Authenticator authenticator;
    private final Authorizer authorizer;
    private final RequestResources resources;

    public AuthGuard(AuthConfig config, Authenticator authenticator, Authorizer authorizer,
                     RequestResources resources) {
        this.config = config;
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.resources = resources;
    }

    @Override
    public void check(RemotingConnection connection, RemotingCommand request) {
        try {
            if (config.authenticationEnabled() && !config.authenticationWhitelist().contains(request.code())) {
                authenticator.authenticate(request);
            }
            if (config.authorizationEnabled() && !config.authorizationWhitelist().contains(request.code())) {
                authorizer.authorize(request.ext(RequestSignature.ACCESS_KEY), resources.of(request),
                    sourceIp(connection));
            }
        } catch (AuthException refused) {
            log.debug("[AUTH] request code {} from {} (AccessKey {}) refused: {}", request.code(),
                connection.remoteAddress(), request.ext(RequestSignature.ACCESS_KEY), refused.getMessage());
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, refused.getMessage());
        }
    }

    static String sourceIp(RemotingConnection connection) {
        SocketAddress address = connection.remoteSocketAddress();
        if (address == null) {
            return null;
        }
        return address.hostAddress() != null ? address.hostAddress() : address.host();
    }
}
