package io.vrmq.broker.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
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

/** With adminToken set, every write needs {@code Authorization: Bearer <token>}; reads stay open. */
@ExtendWith(VertxExtension.class)
class AdminTokenIT {
    private static final String TOKEN = "t0ken";
    private static final JsonObject TOPIC = new JsonObject().put("topic", "Guarded").put("readQueueNums", 1);

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void writeWithoutTokenIsUnauthorized(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, TOKEN, broker ->
                broker.withToken(HttpMethod.POST, "/api/v1/topics", null, TOPIC))
            .map(response -> {
                HttpTestBroker.assertError(response, 401);
                assertEquals("Bearer", response.getHeader("WWW-Authenticate"));
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void writeWithAWrongTokenIsUnauthorized(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, TOKEN, broker ->
                broker.withToken(HttpMethod.DELETE, "/api/v1/topics/Guarded", "wrong", null))
            .map(response -> HttpTestBroker.assertError(response, 401))
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void writeWithTheTokenSucceeds(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, TOKEN, broker ->
                broker.withToken(HttpMethod.POST, "/api/v1/topics", TOKEN, TOPIC)
                    .compose(created -> {
                        assertEquals(201, created.statusCode(), created.bodyAsString());
                        return broker.withToken(HttpMethod.DELETE, "/api/v1/topics/Guarded", TOKEN, null);
                    }))
            .map(deleted -> {
                assertEquals(200, deleted.statusCode(), deleted.bodyAsString());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }

    @Test
    @Timeout(value = 20, timeUnit = TimeUnit.SECONDS)
    void readsNeedNoToken(Vertx vertx, VertxTestContext test, @TempDir Path storeDir) {
        HttpTestBroker.with(vertx, storeDir, TOKEN, broker -> broker.get("/api/v1/topics"))
            .map(response -> {
                assertEquals(200, response.statusCode(), response.bodyAsString());
                return null;
            })
            .onComplete(test.succeedingThenComplete());
    }
}
