package io.vrmq.broker.controller;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * How a broker gets and keeps its controller id, RocketMQ's way: the id in {@code brokerIdentity} if there is one;
 * else resume an application left in {@code brokerIdentity-temp}; else ask for the next free id (1012), record the
 * application, apply for it with a check code (1013) and record the id. Then REGISTER_BROKER (1003) tells the
 * controller the broker's address and answers with its set's master. An application the controller refuses (another
 * broker took the id first) is dropped, and the caller starts over.
 * Confined to the broker's context; the files are read and written on a worker.
 */
final class BrokerIdAssignment {
    private static final Logger log = LoggerFactory.getLogger(BrokerIdAssignment.class);

    private final Vertx vertx;
    private final ControllerLink link;
    private final BrokerIdentityFiles files;
    private final RemotingJson json;
    private final String clusterName;
    private final String brokerName;
    private final String brokerAddr;
    private Long controllerId;

    BrokerIdAssignment(Vertx vertx, ControllerLink link, BrokerIdentityFiles files, RemotingJson json,
                       String clusterName, String brokerName, String brokerAddr) {
        this.vertx = vertx;
        this.link = link;
        this.files = files;
        this.json = json;
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.brokerAddr = brokerAddr;
    }

    /** The id the controller gave this broker, or null before {@link #register} first succeeded. */
    Long controllerId() {
        return controllerId;
    }

    /** Makes sure this broker has an id, then registers it; the controller's view of the set's master. */
    Future<RoleAnswer> register() {
        Future<Long> id = controllerId != null ? Future.succeededFuture(controllerId) : assignedId();
        return id.compose(assigned -> {
            controllerId = assigned;
            return registerBroker();
        });
    }

    /** REGISTER_BROKER alone (the controller lost track of this broker: 2008 to GET_REPLICA_INFO). */
    Future<RoleAnswer> registerBroker() {
        Map<String, String> header = names();
        header.put("brokerId", Long.toString(controllerId));
        header.put("brokerAddress", brokerAddr);
        header.put("invokeTime", Long.toString(System.currentTimeMillis()));
        return link.callLeader(RequestCode.CONTROLLER_REGISTER_BROKER, header, null)
            .map(response -> {
                requireSuccess(response, "register broker " + controllerId);
                return RoleAnswer.fromReplicaInfo(response, json);
            });
    }

    private Future<Long> assignedId() {
        return vertx.executeBlocking(() -> new Stored(files.readAssigned(), files.readApplied()), false)
            .compose(stored -> {
                if (stored.assigned() != null) {
                    requireOwnNames(stored.assigned().clusterName(), stored.assigned().brokerName(), "brokerIdentity");
                    return Future.succeededFuture(stored.assigned().brokerId());
                }
                if (stored.applied() != null) {
                    requireOwnNames(stored.applied().clusterName(), stored.applied().brokerName(),
                        "brokerIdentity-temp");
                    return apply(stored.applied());
                }
                return nextBrokerId().compose(next -> {
                    BrokerIdentityFiles.Applied applied = new BrokerIdentityFiles.Applied(clusterName, brokerName,
                        next, brokerAddr + ";" + System.currentTimeMillis());
                    return vertx.executeBlocking(() -> {
                        files.writeApplied(applied);
                        return applied;
                    }, false).compose(this::apply);
                });
            });
    }

    private record Stored(BrokerIdentityFiles.Assigned assigned, BrokerIdentityFiles.Applied applied) {
    }

    private Future<Long> nextBrokerId() {
        return link.callLeader(RequestCode.CONTROLLER_GET_NEXT_BROKER_ID, names(), null).map(response -> {
            requireSuccess(response, "get next broker id");
            return response.header().requiredLong("nextBrokerId");
        });
    }

    private Future<Long> apply(BrokerIdentityFiles.Applied applied) {
        Map<String, String> header = names();
        header.put("appliedBrokerId", Long.toString(applied.brokerId()));
        header.put("registerCheckCode", applied.registerCheckCode());
        return link.callLeader(RequestCode.CONTROLLER_APPLY_BROKER_ID, header, null)
            .compose(response -> {
                if (response.code() != ResponseCode.SUCCESS) {
                    // Taken by another broker meanwhile: forget the application and start over.
                    return vertx.executeBlocking(() -> {
                        files.deleteApplied();
                        return null;
                    }, false).compose(deleted -> Future.failedFuture(new IllegalStateException("controller refused "
                        + "broker id " + applied.brokerId() + ": " + response.code() + " " + response.remark())));
                }
                return vertx.executeBlocking(() -> {
                    files.confirm(new BrokerIdentityFiles.Assigned(clusterName, brokerName, applied.brokerId()));
                    return applied.brokerId();
                }, false);
            })
            .onSuccess(id -> log.info("controller assigned broker id {} to {} {} at {}", id, clusterName, brokerName,
                brokerAddr));
    }

    private void requireOwnNames(String storedCluster, String storedBroker, String file) {
        if (!clusterName.equals(storedCluster) || !brokerName.equals(storedBroker)) {
            throw new IllegalStateException(file + " names " + storedCluster + "/" + storedBroker + " but this broker "
                + "is " + clusterName + "/" + brokerName + ": fix brokerClusterName/brokerName or remove the file");
        }
    }

    private Map<String, String> names() {
        Map<String, String> header = new HashMap<>();
        header.put("clusterName", clusterName);
        header.put("brokerName", brokerName);
        return header;
    }

    private static void requireSuccess(RemotingCommand response, String what) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new IllegalStateException(what + ": controller answered " + response.code() + " "
                + response.remark());
        }
    }
}
