package io.vrmq.broker.auth.server;

import com.fasterxml.jackson.core.type.TypeReference;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.AuthMetadata;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.server.AuthBodies.AclInfo;
import io.vrmq.broker.auth.server.AuthBodies.UserInfo;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.json.RemotingJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * The durable copy of the users and ACLs: {@code <storePathRootDir>/config/users.json} and {@code acls.json}, in
 * the bodies of AUTH_LIST_USER and AUTH_LIST_ACL (JSON arrays). Apache keeps the same data in RocksDB under the
 * same directory; like Apache, the passwords are stored as given, because they are the HMAC keys. Each write is a
 * whole snapshot, atomically renamed (see {@link JsonFile}). Thread-safe.
 */
public final class AuthStore {
    private static final Logger log = LoggerFactory.getLogger(AuthStore.class);
    private static final TypeReference<List<UserInfo>> USERS = new TypeReference<>() {
    };
    private static final TypeReference<List<AclInfo>> ACLS = new TypeReference<>() {
    };

    private final AuthMetadata metadata;
    private final JsonFile usersFile;
    private final JsonFile aclsFile;
    private final RemotingJson json;

    public AuthStore(AuthMetadata metadata, JsonFile usersFile, JsonFile aclsFile, RemotingJson json) {
        this.metadata = metadata;
        this.usersFile = usersFile;
        this.aclsFile = aclsFile;
        this.json = json;
    }

    public AuthMetadata metadata() {
        return metadata;
    }

    /** Reads both files into the tables (absent files: none yet). */
    public Future<Void> load() {
        // Both decoded on workers; the tables are replaced on the caller's context.
        Future<List<User>> readUsers = usersFile.read(bytes -> parse(bytes, USERS, usersFile).stream()
            .map(UserInfo::toUser).toList());
        Future<List<Acl>> readAcls = aclsFile.read(bytes -> parse(bytes, ACLS, aclsFile).stream()
            .map(info -> info.toAcl(null)).filter(acl -> acl.username() != null).toList());
        return Future.all(readUsers, readAcls).map(read -> {
            List<User> users = readUsers.result();
            List<Acl> acls = readAcls.result();
            metadata.replaceAll(users, acls);
            log.info("{} users and {} ACLs loaded from {}", users.size(), acls.size(), usersFile.path()
                .replaceAll("users\\.json$", ""));
            return null;
        });
    }

    /** Writes both tables as they are now. */
    public Future<Void> persist() {
        return Future.all(usersFile.write(() -> json.encode(metadata.allUsers().stream().map(UserInfo::of)
                .toList())),
            aclsFile.write(() -> json.encode(metadata.allAcls().stream().map(AclInfo::of).toList()))).mapEmpty();
    }

    private <T> List<T> parse(Buffer bytes, TypeReference<List<T>> type, JsonFile file) {
        if (bytes == null || bytes.length() == 0) {
            return List.of();
        }
        try {
            List<T> values = json.mapper().readValue(bytes.getBytes(), type);
            return values == null ? List.of() : values;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file.path() + ": " + e.getMessage(), e);
        }
    }
}
