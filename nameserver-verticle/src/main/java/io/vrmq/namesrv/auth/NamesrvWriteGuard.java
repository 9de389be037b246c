package io.vrmq.namesrv.auth;

import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingConnection;
import io.vrmq.remoting.transport.RequestGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * Refuses, with NO_PERMISSION (16) and the broker's remarks, every NameServer write that is not signed by one of the
 * NameServer's users: broker registration, unregistration and heartbeats (a forged one could steer clients to
 * another address or keep a dead broker in the routes), topic registration and deletion, write-permission changes,
 * KV config changes and config updates. Reads stay open, as in Apache: clients sign with their broker users, which
 * the NameServer does not know. Installed only when authenticationEnabled is on. Event loop; one HMAC.
 */
public final class NamesrvWriteGuard implements RequestGuard {
    private static final Logger log = LoggerFactory.getLogger(NamesrvWriteGuard.class);
    static final Set<Integer> WRITES = Set.of(RequestCode.PUT_KV_CONFIG, RequestCode.DELETE_KV_CONFIG,
        RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER, RequestCode.WIPE_WRITE_PERM_OF_BROKER,
        RequestCode.DELETE_TOPIC_IN_NAMESRV, RequestCode.REGISTER_TOPIC_IN_NAMESRV, RequestCode.UPDATE_NAMESRV_CONFIG,
        RequestCode.ADD_WRITE_PERM_OF_BROKER, RequestCode.BROKER_HEARTBEAT);

    private final NamesrvAuthConfig config;

    public NamesrvWriteGuard(NamesrvAuthConfig config) {
        this.config = config;
    }

    @Override
    public void check(RemotingConnection connection, RemotingCommand request) {
        if (!WRITES.contains(request.code())) {
            return;
        }
        String refusal = refusal(request);
        if (refusal != null) {
            log.debug("[AUTH] NameServer write {} from {} (AccessKey {}) refused: {}", request.code(),
                connection.remoteAddress(), request.ext(RequestSignature.ACCESS_KEY), refusal);
            throw new RemotingCommandException(ResponseCode.NO_PERMISSION, refusal);
        }
    }

    private String refusal(RemotingCommand request) {
        String username = request.ext(RequestSignature.ACCESS_KEY);
        if (username == null || username.isEmpty()) {
            return "username cannot be null.";
        }
        String secret = config.secretsByUser().get(username);
        if (secret == null) {
            return "User:" + username + " is not found.";
        }
        return RequestSignature.matches(RequestSignature.expected(request, secret),
            request.ext(RequestSignature.SIGNATURE)) ? null : "check signature failed.";
    }
}
