package io.vrmq.broker.auth.server;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.AuthException;
import io.vrmq.broker.auth.PolicyType;
import io.vrmq.broker.auth.Resource;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.server.AuthBodies.AclInfo;
import io.vrmq.broker.auth.server.AuthBodies.UserInfo;
import io.vrmq.remoting.auth.RequestSignature;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RequestProcessor;

import java.util.List;

/**
 * The ACL 2.0 admin codes AUTH_CREATE_USER .. AUTH_LIST_ACL (3001-3010) with Apache's headers, bodies and answers:
 * refusals of the user and ACL rules are NO_PERMISSION (16) with Apache's remark, a blank username
 * INVALID_PARAMETER, a non-Super caller touching a Super user SYSTEM_ERROR; get and list answer an empty body when
 * there is nothing. The authorization these codes need (Cluster Update or Get) is the guard's job. Runs on the event
 * loop; persistence is asynchronous.
 */
public final class AuthAdminProcessor {
    private final AuthAdmin admin;
    private final RemotingJson json;

    public AuthAdminProcessor(AuthAdmin admin, RemotingJson json) {
        this.admin = admin;
        this.json = json;
    }

    public void registerInto(ProcessorTable.Builder table) {
        table.register(RequestCode.AUTH_CREATE_USER, guarded(this::createUser));
        table.register(RequestCode.AUTH_UPDATE_USER, guarded(this::updateUser));
        table.register(RequestCode.AUTH_DELETE_USER, guarded(this::deleteUser));
        table.register(RequestCode.AUTH_GET_USER, guarded(this::getUser));
        table.register(RequestCode.AUTH_LIST_USER, guarded(this::listUsers));
        table.register(RequestCode.AUTH_CREATE_ACL, guarded(this::mergeAcl));
        table.register(RequestCode.AUTH_UPDATE_ACL, guarded(this::mergeAcl));
        table.register(RequestCode.AUTH_DELETE_ACL, guarded(this::deleteAcl));
        table.register(RequestCode.AUTH_GET_ACL, guarded(this::getAcl));
        table.register(RequestCode.AUTH_LIST_ACL, guarded(this::listAcls));
    }

    private Future<RemotingCommand> createUser(RemotingCommand request) {
        User user = userFromBody(request);
        return admin.createUser(user, caller(request)).map(done -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> updateUser(RemotingCommand request) {
        User user = userFromBody(request);
        return admin.updateUser(user, caller(request)).map(done -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> deleteUser(RemotingCommand request) {
        return admin.deleteUser(request.ext("username"), caller(request))
            .map(done -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> getUser(RemotingCommand request) {
        String username = request.ext("username");
        if (username == null || username.isBlank()) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "The username is blank");
        }
        User user = admin.user(username);
        return Future.succeededFuture(RemotingCommand.success(request,
            user == null ? null : json.encode(UserInfo.of(user))));
    }

    private Future<RemotingCommand> listUsers(RemotingCommand request) {
        List<UserInfo> users = admin.users(request.ext("filter")).stream().map(UserInfo::of).toList();
        return Future.succeededFuture(RemotingCommand.success(request, users.isEmpty() ? null : json.encode(users)));
    }

    private Future<RemotingCommand> mergeAcl(RemotingCommand request) {
        AclInfo info = request.hasBody() ? json.decode(request.body(), AclInfo.class) : null;
        if (info == null || info.policies() == null || info.policies().isEmpty()) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "The body of acl is null");
        }
        Acl acl = info.toAcl(Acl.usernameOf(request.ext("subject")));
        if (acl.username() == null) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "The subject of the acl is not a user");
        }
        return admin.mergeAcl(acl, caller(request)).map(done -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> deleteAcl(RemotingCommand request) {
        return admin.deleteAcl(Acl.usernameOf(request.ext("subject")), PolicyType.byName(request.ext("policyType")),
            Resource.parse(request.ext("resource")), caller(request))
            .map(done -> RemotingCommand.success(request, null));
    }

    private Future<RemotingCommand> getAcl(RemotingCommand request) {
        Acl acl = admin.acl(Acl.usernameOf(request.ext("subject")));
        return Future.succeededFuture(RemotingCommand.success(request,
            acl == null ? null : json.encode(AclInfo.of(acl))));
    }

    private Future<RemotingCommand> listAcls(RemotingCommand request) {
        List<AclInfo> acls = admin.acls(request.ext("subjectFilter"), request.ext("resourceFilter")).stream()
            .map(AclInfo::of).toList();
        Buffer body = acls.isEmpty() ? null : json.encode(acls);
        return Future.succeededFuture(RemotingCommand.success(request, body));
    }

    private User userFromBody(RemotingCommand request) {
        String username = request.ext("username");
        if (username == null || username.isEmpty()) {
            throw new RemotingCommandException(ResponseCode.INVALID_PARAMETER, "The username is blank");
        }
        UserInfo info = request.hasBody() ? json.decode(request.body(), UserInfo.class) : null;
        if (info == null) {
            throw new RemotingCommandException(ResponseCode.SYSTEM_ERROR, "The body of user is null");
        }
        return new UserInfo(username, info.password(), info.userType(), info.userStatus()).toUser();
    }

    private static String caller(RemotingCommand request) {
        return request.ext(RequestSignature.ACCESS_KEY);
    }

    /** The rules' refusals, thrown or failed, become NO_PERMISSION with their message. */
    private static RequestProcessor guarded(Handler handler) {
        return (connection, request) -> {
            Future<RemotingCommand> result;
            try {
                result = handler.handle(request);
            } catch (AuthException refused) {
                result = Future.failedFuture(refused);
            }
            return result.recover(error -> error instanceof AuthException refused
                ? Future.succeededFuture(RemotingCommand.failure(request, ResponseCode.NO_PERMISSION,
                    refused.getMessage()))
                : Future.failedFuture(error));
        };
    }

    @FunctionalInterface
    private interface Handler {
        Future<RemotingCommand> handle(RemotingCommand request);
    }
}
