package io.vrmq.broker.http;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes admin API responses: a JSON body with a status, or the error form {@code {"error": "...", "status": N}}.
 * Maps failures to statuses: {@link HttpError} carries its own; a {@link RemotingCommandException} from the shared
 * admin services maps by RocketMQ response code (unknown topic or group: 404, invalid parameter: 400); anything else
 * is 500 and logged at ERROR. Stateless; event loop.
 */
final class HttpReplies {
    private static final Logger log = LoggerFactory.getLogger(HttpReplies.class);
    private static final String CONTENT_TYPE = "content-type";
    private static final String APPLICATION_JSON = "application/json";

    private final RemotingJson json;

    HttpReplies(RemotingJson json) {
        this.json = json;
    }

    void send(RoutingContext context, int status, Object body) {
        context.response().setStatusCode(status).putHeader(CONTENT_TYPE, APPLICATION_JSON).end(json.encode(body));
    }

    /** Answers 200 with the future's value, or the error form of its failure. */
    <T> void reply(RoutingContext context, Future<T> result) {
        reply(context, 200, result);
    }

    <T> void reply(RoutingContext context, int status, Future<T> result) {
        result.onComplete(outcome -> {
            if (outcome.succeeded()) {
                send(context, status, outcome.result());
            } else {
                failure(context, outcome.cause());
            }
        });
    }

    void failure(RoutingContext context, Throwable error) {
        if (error instanceof HttpError known) {
            error(context, known.status(), known.getMessage());
        } else if (error instanceof RemotingCommandException refused) {
            error(context, statusOf(refused.responseCode()), refused.getMessage());
        } else {
            log.error("admin request {} {} failed", context.request().method(), context.request().path(), error);
            error(context, HttpError.INTERNAL, String.valueOf(error.getMessage() == null ? error : error.getMessage()));
        }
    }

    static void error(RoutingContext context, int status, String message) {
        if (context.response().ended()) {
            return;
        }
        context.response().setStatusCode(status).putHeader(CONTENT_TYPE, APPLICATION_JSON)
            .end(new JsonObject().put("error", message).put("status", status).toBuffer());
    }

    static int statusOf(int responseCode) {
        return switch (responseCode) {
            case ResponseCode.TOPIC_NOT_EXIST, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                 ResponseCode.CONSUMER_NOT_ONLINE, ResponseCode.SUBSCRIPTION_NOT_EXIST -> HttpError.NOT_FOUND;
            case ResponseCode.INVALID_PARAMETER -> HttpError.BAD_REQUEST;
            default -> HttpError.INTERNAL;
        };
    }
}
