package io.vrmq.broker.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * /api/v1/users and /api/v1/acls on a broker with ACL authentication on: writes need HTTP Basic of a Super user
 * (there is no admin token), views never show a password, and the edits follow the admin codes' rules.
 */
@ExtendWith(VertxExtension.class)
class AuthApiIT {
    private static final String ROOT = "root";
    private static final String ROOT_SECRET = "root-secret";

    private static JsonObject aclBroker(Path storeDir) {
        return HttpTestBroker.config(storeDir).put("authenticationEnabled", true)
            .put("initAuthenticationUser", new JsonObject().put("username", ROOT).put("password", ROOT_SECRET)
                .encode());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aWriteWithoutASuperUserIsUnauthorized(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        JsonObject user = new JsonObject().put("username", "u1").put("password", "p1");
        HttpTestBroker.with(vertx, aclBroker(storeDir), broker ->
                broker.asUser(HttpMethod.POST, "/api/v1/users", null, null, user)
                    .map(response -> HttpTestBroker.assertError(response, 401))
                    .compose(refused -> broker.asUser(HttpMethod.POST, "/api/v1/users", ROOT, "wrong", user))
                    .map(response -> HttpTestBroker.assertError(response, 401))
                    .compose(refused -> broker.get("/api/v1/users")))
            .map(users -> {
                assertEquals(200, users.statusCode(), users.bodyAsString());
                assertEquals(1, users.bodyAsJsonObject().getJsonArray("users").size(), "only the initial user");
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void aSuperUserCreatesAUserAndItsAclAndViewsHideThePassword(Vertx vertx, VertxTestContext test,
                                                               @TempDir Path storeDir) {
        JsonObject user = new JsonObject().put("username", "u2").put("password", "p2").put("userType", "Normal");
        JsonObject acl = new JsonObject().put("subject", "User:u2").put("policies", new JsonArray().add(
            new JsonObject().put("entries", new JsonArray().add(new JsonObject().put("resource", "Topic:t")
                .put("actions", new JsonArray().add("Pub")).put("decision", "Allow")))));
        HttpTestBroker.with(vertx, aclBroker(storeDir), broker ->
                broker.asUser(HttpMethod.POST, "/api/v1/users", ROOT, ROOT_SECRET, user)
                    .map(HttpTestBroker::requireOk)
                    .compose(created -> broker.asUser(HttpMethod.POST, "/api/v1/acls", ROOT, ROOT_SECRET, acl))
                    .map(HttpTestBroker::requireOk)
                    .compose(created -> broker.asUser(HttpMethod.POST, "/api/v1/users", ROOT, ROOT_SECRET, user))
                    .map(duplicate -> HttpTestBroker.assertError(duplicate, 400))
                    .compose(refused -> broker.get("/api/v1/users/u2").map(HttpTestBroker::requireOk)
                        .compose(view -> broker.get("/api/v1/acls/User:u2").map(HttpTestBroker::requireOk)
                            .map(aclView -> new JsonObject().put("user", view).put("acl", aclView)))))
            .map(views -> {
                JsonObject view = views.getJsonObject("user");
                assertEquals("Normal", view.getString("userType"));
                assertFalse(view.containsKey("password"), view.encode());
                assertEquals(true, view.getBoolean("passwordSet"));
                JsonObject entry = views.getJsonObject("acl").getJsonArray("policies").getJsonObject(0)
                    .getJsonArray("entries").getJsonObject(0);
                assertEquals("Topic:t", entry.getString("resource"));
                assertEquals("Custom", views.getJsonObject("acl").getJsonArray("policies").getJsonObject(0)
                    .getString("policyType"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
