package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.broker.auth.Acl;
import io.vrmq.broker.auth.AuthException;
import io.vrmq.broker.auth.PolicyType;
import io.vrmq.broker.auth.Resource;
import io.vrmq.broker.auth.User;
import io.vrmq.broker.auth.server.AuthAdmin;
import io.vrmq.broker.auth.server.AuthBodies.AclInfo;
import io.vrmq.broker.auth.server.AuthBodies.UserInfo;
import io.vrmq.remoting.json.RemotingJson;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /api/v1/users} and {@code /api/v1/acls}: the ACL 2.0 users and ACLs, viewed and edited through the same
 * rules as the admin codes 3001-3010 ({@link AuthAdmin}). Views never show a password (only whether one is set);
 * writes need the admin token like every other write and act as a Super user. The rules' refusals are 400 with
 * Apache's message, an unknown user or ACL 404. Event loop.
 */
final class AuthRoutes {
    private final AuthAdmin admin;
    private final RemotingJson json;
    private final HttpReplies replies;

    AuthRoutes(AuthAdmin admin, RemotingJson json, HttpReplies replies) {
        this.admin = admin;
        this.json = json;
        this.replies = replies;
    }

    void mount(Router router) {
        router.get("/api/v1/users").handler(context -> guarded(context, () -> Future.succeededFuture(
            Map.of("users", admin.users(context.queryParams().get("filter")).stream().map(AuthRoutes::view)
                .toList()))));
        router.post("/api/v1/users").handler(context -> guarded(context, () -> {
            User user = userFrom(RequestValues.body(context), RequestValues.requiredString(RequestValues.body(
                context), "username"));
            return admin.createUser(user, null).map(done -> view(admin.user(user.username())));
        }));
        router.get("/api/v1/users/:username").handler(context -> guarded(context, () -> {
            User user = admin.user(context.pathParam("username"));
            if (user == null) {
                throw HttpError.notFound("no user " + context.pathParam("username"));
            }
            return Future.succeededFuture(view(user));
        }));
        router.put("/api/v1/users/:username").handler(context -> guarded(context, () -> {
            String username = context.pathParam("username");
            return admin.updateUser(userFrom(RequestValues.body(context), username), null)
                .map(done -> view(admin.user(username)));
        }));
        router.delete("/api/v1/users/:username").handler(context -> guarded(context, () ->
            admin.deleteUser(context.pathParam("username"), null).map(done -> Map.of("deleted",
                context.pathParam("username")))));
        router.get("/api/v1/acls").handler(context -> guarded(context, () -> Future.succeededFuture(
            Map.of("acls", admin.acls(context.queryParams().get("subjectFilter"),
                context.queryParams().get("resourceFilter")).stream().map(AclInfo::of).toList()))));
        router.get("/api/v1/acls/:subject").handler(context -> guarded(context, () -> {
            Acl acl = admin.acl(username(context.pathParam("subject")));
            if (acl == null) {
                throw HttpError.notFound("no ACL for " + context.pathParam("subject"));
            }
            return Future.succeededFuture(AclInfo.of(acl));
        }));
        router.post("/api/v1/acls").handler(context -> guarded(context, () -> {
            AclInfo info = json.mapper().convertValue(RequestValues.body(context).getMap(), AclInfo.class);
            Acl acl = info.toAcl(null);
            if (acl.username() == null) {
                throw HttpError.badRequest("field 'subject' must be User:<username>, got " + info.subject());
            }
            return admin.mergeAcl(acl, null).map(done -> AclInfo.of(admin.acl(acl.username())));
        }));
        router.delete("/api/v1/acls/:subject").handler(context -> guarded(context, () -> {
            String username = username(context.pathParam("subject"));
            String resource = context.queryParams().get("resource");
            return admin.deleteAcl(username, PolicyType.byName(context.queryParams().get("policyType")),
                Resource.parse(resource), null).map(done -> Map.of("deleted", "User:" + username));
        }));
    }

    /** A subject in a path: {@code User:u} or just {@code u}. */
    private static String username(String subject) {
        String username = Acl.usernameOf(subject);
        return username != null ? username : subject;
    }

    private static User userFrom(JsonObject body, String username) {
        return new UserInfo(username, RequestValues.optionalString(body, "password"),
            RequestValues.optionalString(body, "userType"), RequestValues.optionalString(body, "userStatus"))
            .toUser();
    }

    private static Map<String, Object> view(User user) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("username", user.username());
        view.put("userType", user.userType() == null ? null : user.userType().displayName());
        view.put("userStatus", user.userStatus() == null ? null : user.userStatus().displayName());
        view.put("passwordSet", user.password() != null && !user.password().isEmpty());
        return view;
    }

    private <T> void guarded(RoutingContext context, Supplier<Future<T>> action) {
        Future<T> result;
        try {
            result = action.get();
        } catch (RuntimeException e) {
            result = Future.failedFuture(e);
        }
        replies.reply(context, result.recover(error -> Future.failedFuture(error instanceof AuthException refused
            ? (refused.getMessage().contains("not exist") ? HttpError.notFound(refused.getMessage())
                : HttpError.badRequest(refused.getMessage())) : error)));
    }
}
