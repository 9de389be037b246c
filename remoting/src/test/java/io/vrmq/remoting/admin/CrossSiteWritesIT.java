package io.vrmq.remoting.admin;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.junit5.VertxExtension;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Over a real HTTP port: which writes a browser may make to an admin port, and that tools and reads pass. */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class CrossSiteWritesIT {
    private HttpClient client;
    private int port;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            String refusal = CrossSiteWrites.refusal(request);
            request.response().setStatusCode(refusal == null ? 200 : 403).end(refusal == null ? "ok" : refusal);
        });
        port = await(server.listen(0, "127.0.0.1")).actualPort();
        client = vertx.createHttpClient();
    }

    @Test
    void aPostFromAnotherSiteIsRefused() throws Exception {
        assertEquals(403, status(HttpMethod.POST, Map.of("Origin", "http://evil.example")));
        assertEquals(403, status(HttpMethod.POST, Map.of("Origin", "http://127.0.0.1:" + (port + 1))));
        assertEquals(403, status(HttpMethod.DELETE, Map.of("Origin", "null")));
        assertEquals(403, status(HttpMethod.POST, Map.of("Sec-Fetch-Site", "cross-site")));
        assertEquals(403, status(HttpMethod.PUT, Map.of("Sec-Fetch-Site", "same-site")));
    }

    @Test
    void sameOriginWritesToolsAndReadsPass() throws Exception {
        assertEquals(200, status(HttpMethod.POST, Map.of("Origin", "http://127.0.0.1:" + port,
            "Sec-Fetch-Site", "same-origin")));
        assertEquals(200, status(HttpMethod.POST, Map.of()));   // curl, scripts: no Origin
        assertEquals(200, status(HttpMethod.GET, Map.of("Origin", "http://evil.example",
            "Sec-Fetch-Site", "cross-site")));
    }

    private int status(HttpMethod method, Map<String, String> headers) throws Exception {
        RequestOptions options = new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port)
            .setURI("/api/v1/topics");
        headers.forEach(options::putHeader);
        return await(client.request(options).compose(request -> request.send()).map(response -> response.statusCode()));
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
