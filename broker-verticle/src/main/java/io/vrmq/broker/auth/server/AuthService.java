package io.vrmq.broker.auth.server;

import com.fasterxml.jackson.core.type.TypeReference;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.AuthConfig;
import io.vrmq.broker.auth.AuthException;
import io.vrmq.broker.auth.AuthMetadata;
import io.vrmq.broker.auth.Authenticator;
import io.vrmq.broker.auth.Authorizer;
import io.vrmq.broker.auth.PlainAclAccount;
import io.vrmq.broker.auth.RequestResources;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.server.AuthBodies.AclInfo;
import io.vrmq.broker.auth.server.AuthBodies.UserInfo;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The broker's ACL 2.0, wired: the settings, the users and ACLs (loaded from the store root, the initial users
 * created), the request guard (only when a check is on, so that requests pay nothing otherwise), the admin codes
 * 3001-3010, the signer of the broker's own outgoing requests, and a slave's copy of its master's users and ACLs.
 * Built and loaded once by the broker verticle; thread-safe afterwards.
 */
public final class AuthService {
    private static final Logger log = LoggerFactory.getLogger(AuthService.class);
    private static final long SYNC_TIMEOUT_MS = 3_000;

    private final AuthConfig config;
    private final AuthStore store;
    private final AuthAdmin admin;
    private final RemotingJson json;
    private final Vertx vertx;

    public AuthService(Vertx vertx, JsonObject rawConfig, String storePathRootDir, String clusterName,
                       RemotingJson json) {
        this.config = AuthConfig.from(rawConfig, clusterName);
        this.json = json;
        this.vertx = vertx;
        this.store = new AuthStore(new AuthMetadata(), new JsonFile(vertx.fileSystem(),
            storePathRootDir + "/config/users.json"), new JsonFile(vertx.fileSystem(),
            storePathRootDir + "/config/acls.json"), json);
        this.admin = new AuthAdmin(store, config.authenticationEnabled());
    }

    public AuthConfig config() {
        return config;
    }

    /** The users and ACLs, for the gRPC endpoint's checks (the same tables the remoting guard reads). */
    public AuthMetadata metadata() {
        return store.metadata();
    }

    public AuthAdmin admin() {
        return admin;
    }

    /**
     * Loads the users and ACLs, creates initAuthenticationUser and the inner client's user if absent, then (with
     * migrateAuthFromV1Enabled) the ACL 1.0 accounts that do not exist yet.
     */
    public Future<Void> load() {
        return store.load().compose(loaded -> migrateFromV1()).compose(migrated -> {
            boolean isCreated = migrated;
            for (User initial : new User[] {config.initUser(), config.innerClientUser()}) {
                if (initial != null && store.metadata().createUserIfAbsent(initial)) {
                    log.info("created the initial Super user {}", initial.username());
                    isCreated = true;
                }
            }
            if (config.isEnforcing()) {
                log.info("ACL 2.0: authentication {}, authorization {}", config.authenticationEnabled() ? "on" : "off",
                    config.authorizationEnabled() ? "on" : "off");
            }
            return isCreated ? store.persist() : Future.succeededFuture();
        });
    }

    /** Apache's AuthMigrator: each ACL 1.0 account that is not a user yet becomes one, with its ACL. */
    private Future<Boolean> migrateFromV1() {
        if (!config.migrateAuthFromV1Enabled()) {
            return Future.succeededFuture(false);
        }
        return vertx.executeBlocking(() -> PlainAclFiles.read(Path.of(config.rocketmqHome()))).map(accounts -> {
            boolean isCreated = false;
            for (PlainAclAccount account : accounts) {
                isCreated |= migrate(account);
            }
            return isCreated;
        });
    }

    private boolean migrate(PlainAclAccount account) {
        AuthMetadata metadata = store.metadata();
        if (metadata.user(account.accessKey()) != null) {
            return false;
        }
        try {
            metadata.createUser(account.user());
            Acl acl = account.acl();
            if (acl != null) {
                metadata.mergeAcl(acl);
            }
            log.info("[ACL MIGRATE] ACL 1.0 account {} migrated ({})", account.accessKey(),
                account.admin() ? "Super" : "Normal");
        } catch (AuthException e) {
            log.error("[ACL MIGRATE] ACL 1.0 account {} not migrated: {}", account.accessKey(), e.getMessage());
        }
        return true;
    }

    /** {@code table} with the admin codes added and, when a check is on, the guard in front of every request. */
    public ProcessorTable install(ProcessorTable table) {
        ProcessorTable.Builder builder = table.toBuilder();
        new AuthAdminProcessor(admin, json).registerInto(builder);
        if (config.isEnforcing()) {
            AuthMetadata metadata = store.metadata();
            builder.guard(new AuthGuard(config, new Authenticator(metadata), new Authorizer(metadata),
                new RequestResources(json, config.clusterName())));
        }
        return builder.build();
    }

    /** Signs with innerClientAuthenticationCredentials when set (as Apache's BrokerOuterAPI does), else nothing. */
    public UnaryOperator<RemotingCommand> outgoingSigner() {
        User inner = config.innerClientUser();
        if (inner == null) {
            return UnaryOperator.identity();
        }
        return request -> RequestSignature.sign(request, inner.username(), inner.password());
    }

    /**
     * A slave's round: the master's users (AUTH_LIST_USER, with passwords) and ACLs (AUTH_LIST_ACL) replace ours.
     * A master that does not give them (Apache before 5.3, or without an auth metadata provider) leaves ours alone.
     */
    public Future<Void> copyFrom(RemotingClient client, String masterAddr) {
        Future<List<UserInfo>> users = list(client, masterAddr, RequestCode.AUTH_LIST_USER,
            new TypeReference<>() {
            });
        Future<List<AclInfo>> acls = list(client, masterAddr, RequestCode.AUTH_LIST_ACL, new TypeReference<>() {
        });
        return Future.all(users, acls).compose(both -> {
            if (users.result() == null || acls.result() == null) {
                return Future.succeededFuture();
            }
            List<User> copiedUsers = new ArrayList<>(users.result().stream().map(UserInfo::toUser).toList());
            keepInitialUsers(copiedUsers);
            List<Acl> copiedAcls = acls.result().stream().map(info -> info.toAcl(null))
                .filter(acl -> acl.username() != null).toList();
            if (!store.metadata().replaceAll(copiedUsers, copiedAcls)) {
                return Future.succeededFuture();
            }
            log.info("{} users and {} ACLs copied from master {}", copiedUsers.size(), copiedAcls.size(),
                masterAddr);
            return store.persist();
        });
    }

    /** This broker's own initial users stay even when its master does not have them. */
    private void keepInitialUsers(List<User> copiedUsers) {
        for (User initial : new User[] {config.initUser(), config.innerClientUser()}) {
            if (initial != null && copiedUsers.stream().noneMatch(user -> user.username().equals(initial.username()))) {
                copiedUsers.add(initial);
            }
        }
    }

    /**
     * The list, empty when the body is empty; null when the master has none to give (it does not know the code, or,
     * like an Apache broker without an auth metadata provider, answers an error): then ours stay as they are.
     */
    private <T> Future<List<T>> list(RemotingClient client, String masterAddr, int code,
                                     TypeReference<List<T>> type) {
        return client.invoke(masterAddr, RemotingCommand.request(code), SYNC_TIMEOUT_MS).map(response -> {
            if (response.code() != ResponseCode.SUCCESS) {
                log.debug("master {} gave no users or ACLs (request {}: {} {})", masterAddr, code, response.code(),
                    response.remark());
                return null;
            }
            if (!response.hasBody()) {
                return List.of();
            }
            try {
                return json.mapper().readValue(response.body().getBytes(), type);
            } catch (IOException e) {
                throw new IllegalStateException("request " + code + " answered a body that does not parse: "
                    + e.getMessage(), e);
            }
        });
    }
}
