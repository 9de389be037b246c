package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.server.GrpcServer;
import io.vrmq.grpc.proto.Code;
import io.vrmq.grpc.proto.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Binds one unary RPC: reads the request, requires x-mq-client-id (CLIENT_ID_REQUIRED, as the proxy), runs the
 * handler, and answers exactly once; a refusal or failure becomes the reply's status with the call ending gRPC OK,
 * as Apache's proxy answers. The answer to a call the client has cancelled is dropped quietly and counted as
 * CANCELLED ({@link CallCancellation}). Runs on the endpoint's event loop; the handler must not block.
 */
final class Unary {
    private static final Logger log = LoggerFactory.getLogger(Unary.class);

    private Unary() {
    }

    /** How to build a reply that only carries a status, and how to read the status of any reply. */
    record Shape<R>(Function<Status, R> failure, Function<R, Status> statusOf) {
    }

    static <Q, R> void bind(GrpcServer server, ServiceMethod<Q, R> method, Shape<R> shape, GrpcMeters meters,
                            BiFunction<GrpcCall, Q, Future<R>> handler) {
        String rpc = method.methodName();
        server.callHandler(method, request -> {
            long startNanos = System.nanoTime();
            GrpcCall call = GrpcCall.of(request);
            CallCancellation cancellation = CallCancellation.watch(request);
            request.last()
                .compose(message -> {
                    if (!call.hasClientId()) {
                        throw new GrpcStatusException(Code.CLIENT_ID_REQUIRED, GrpcCall.CLIENT_ID + " is required");
                    }
                    return handler.apply(call, message);
                })
                .recover(error -> {
                    if (!(error instanceof GrpcStatusException) && !cancellation.isCancelled()) {
                        log.warn("{} from {} ({}) failed", rpc, call.clientId(), call.remoteAddress(), error);
                    }
                    return Future.succeededFuture(shape.failure().apply(Statuses.fromFailure(error)));
                })
                .onSuccess(reply -> {
                    if (cancellation.answer(() -> request.response().end(reply))) {
                        meters.answered(rpc, shape.statusOf().apply(reply).getCode(), startNanos);
                    } else {
                        meters.cancelled(rpc, startNanos);
                    }
                });
        });
    }
}
