package io.vrmq.broker.auth.server;

import io.vertx.core.Future;
import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.AuthException;
import io.vrmq.broker.auth.AuthMetadata;
import io.vrmq.broker.auth.PolicyType;
import io.vrmq.broker.auth.Resource;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.UserType;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * User and ACL administration with Apache's rules, shared by the admin request codes 3001-3010 and the admin HTTP
 * API: only a Super user may create, change or delete a Super user; every change is persisted before it is
 * acknowledged. {@code caller} is the request's AccessKey; none (authentication off) counts as Super, as in Apache.
 *
 * <p>Failures: {@link AuthException} (answered 16 with its message), {@link RemotingCommandException} with its
 * own code. Thread-safe (the tables are); call from any thread.
 */
public final class AuthAdmin {
    private static final Logger log = LoggerFactory.getLogger(AuthAdmin.class);

    private final AuthStore store;
    private final AuthMetadata metadata;
    private final boolean isAuthenticationEnabled;

    /** @param isAuthenticationEnabled whether the broker authenticates (the admin HTTP API then asks for a user) */
    public AuthAdmin(AuthStore store, boolean isAuthenticationEnabled) {
        this.store = store;
        this.metadata = store.metadata();
        this.isAuthenticationEnabled = isAuthenticationEnabled;
    }

    public boolean isAuthenticationEnabled() {
        return isAuthenticationEnabled;
    }

    public AuthMetadata metadata() {
        return metadata;
    }

    public Future<Void> createUser(User user, String caller) {
        requireUsername(user.username());
        if (user.userType() == UserType.SUPER && !isSuper(caller)) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                "The super user can only be create by super user");
        }
        metadata.createUser(user);
        log.info("user {} ({}) created by {}", user.username(), user.userType(), describe(caller));
        return store.persist();
    }

    public Future<Void> updateUser(User update, String caller) {
        requireUsername(update.username());
        if (update.userType() == UserType.SUPER && !isSuper(caller)) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                "The super user can only be update by super user");
        }
        User old = metadata.user(update.username());
        if (old == null) {
            throw new AuthException("The user is not exist");
        }
        if (old.isSuper() && !isSuper(caller)) {
            throw new AuthException("The super user can only be update by super user");
        }
        metadata.updateUser(update);
        log.info("user {} updated by {}", update.username(), describe(caller));
        return store.persist();
    }

    /** Deleting a user that does not exist succeeds; the user's ACL goes with it. */
    public Future<Void> deleteUser(String username, String caller) {
        if (username == null || username.isBlank()) {
            throw new AuthException("username can not be blank");
        }
        User old = metadata.user(username);
        if (old == null) {
            return Future.succeededFuture();
        }
        if (old.isSuper() && !isSuper(caller)) {
            throw new AuthException("The super user can only be update by super user");
        }
        metadata.deleteUser(username);
        log.info("user {} deleted by {}", username, describe(caller));
        return store.persist();
    }

    /** The user, or null. */
    public User user(String username) {
        requireUsername(username);
        return metadata.user(username);
    }

    public List<User> users(String filter) {
        return metadata.users(filter);
    }

    /** createAcl and updateAcl: the same merge (the user must exist). */
    public Future<Void> mergeAcl(Acl acl, String caller) {
        metadata.mergeAcl(acl);
        log.info("ACL of {} created or updated by {}", acl.subject(), describe(caller));
        return store.persist();
    }

    /** @param username null when the subject was not {@code User:<name>} */
    public Future<Void> deleteAcl(String username, PolicyType type, Resource resource, String caller) {
        metadata.deleteAcl(username, type, resource);
        log.info("ACL of User:{} ({}) deleted by {}", username, resource == null ? "all" : resource.key(),
            describe(caller));
        return store.persist();
    }

    /** The ACL of an existing user, or null when it has none. */
    public Acl acl(String username) {
        return metadata.requireAcl(username);
    }

    public List<Acl> acls(String subjectFilter, String resourceFilter) {
        return metadata.acls(subjectFilter, resourceFilter);
    }

    private boolean isSuper(String caller) {
        if (caller == null || caller.isEmpty()) {
            return true;
        }
        User user = metadata.user(caller);
        if (user == null) {
            throw new AuthException("User:" + caller + " is not found");
        }
        return user.isSuper();
    }

    private static void requireUsername(String username) {
        if (username == null || username.isEmpty()) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "The username is blank");
        }
    }

    private static String describe(String caller) {
        return caller == null || caller.isEmpty() ? "an unsigned request" : caller;
    }
}
