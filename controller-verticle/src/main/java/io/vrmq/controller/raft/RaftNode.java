package io.vrmq.controller.raft;

import io.vrmq.controller.ControllerConfig;
import io.vrmq.controller.ControllerPeer;
import io.vrmq.controller.state.ControllerEvent;
import io.vrmq.controller.state.StateCodec;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;

/**
 * This node's member of the controller's Raft group (Apache Ratis over its shaded Netty, {@code raft.rpc.type=NETTY}):
 * the server, its properties and the in-process submission of events.
 *
 * <p>Threads: {@link #start} and {@link #close} block (storage, sockets) and must run on a worker. {@link #submit}
 * hands the Ratis call to a private single thread, so an event loop never runs Ratis code; the returned future
 * completes on a Ratis thread. {@link #status} only reads volatile Ratis state and is safe anywhere.
 */
public final class RaftNode {
    /** Ratis' Netty server logs every frame at INFO through java.util.logging; JUL holds loggers weakly. */
    private static final String NETTY_WIRE_LOGGER = "org.apache.ratis.thirdparty.io.netty.handler.logging";

    private final ControllerConfig config;
    private final ControllerStateMachine stateMachine;
    private final StateCodec codec;
    private final RaftGroupId groupId;
    private final RaftPeerId selfId;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong nextCallId = new AtomicLong();
    private final ExecutorService submitter;
    private final java.util.logging.Logger nettyWireLogger = java.util.logging.Logger.getLogger(NETTY_WIRE_LOGGER);
    private volatile RaftServer server;
    private volatile RaftServer.Division division;

    public RaftNode(ControllerConfig config, ControllerStateMachine stateMachine, StateCodec codec) {
        this.config = config;
        this.stateMachine = stateMachine;
        this.codec = codec;
        this.groupId = groupIdOf(config.group());
        this.selfId = RaftPeerId.valueOf(config.selfId());
        this.submitter = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "controller-raft-submit-" + config.selfId());
            thread.setDaemon(true);
            return thread;
        });
        nettyWireLogger.setLevel(Level.WARNING);
    }

    /** The group id every node derives from controllerDLegerGroup, so that nodes configured alike form one group. */
    public static RaftGroupId groupIdOf(String groupName) {
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("vrmq-controller:" + groupName)
            .getBytes(StandardCharsets.UTF_8)));
    }

    /** Opens (or formats) this node's storage and joins the group. Blocking. */
    public void start() throws IOException {
        List<RaftPeer> peers = config.raftPeers().stream()
            .map(peer -> RaftPeer.newBuilder().setId(peer.id()).setAddress(peer.address()).build())
            .toList();
        RaftServer started = RaftServer.newBuilder()
            .setServerId(selfId)
            .setGroup(RaftGroup.valueOf(groupId, peers))
            .setProperties(properties())
            .setStateMachine(stateMachine)
            .setOption(RaftStorage.StartupOption.RECOVER)
            .build();
        try {
            started.start();
        } catch (IOException | RuntimeException e) {
            started.close();   // releases the storage a half-started server holds, for the next start
            throw e;
        }
        server = started;
        division = started.getDivision(groupId);
    }

    /**
     * Replicates {@code event} and completes with how the state machine applied it (on this node, once committed).
     * Fails with {@link NotRaftLeaderException} when this node is not the ready leader (any more).
     */
    public CompletableFuture<StateCodec.EventOutcome> submit(ControllerEvent event) {
        byte[] bytes = codec.encodeEvent(event);
        return CompletableFuture.supplyAsync(() -> request(bytes), submitter)
            .thenCompose(this::send)
            .thenApply(this::outcomeOf);
    }

    public RaftStatus status() {
        RaftServer.Division current = division;
        if (current == null) {
            return new RaftStatus(config.selfId(), null, false, false, 0, -1, -1, stateMachine.snapshotIndex(),
                stateMachine.loadedSnapshotIndex());
        }
        RaftPeerId leader = current.getInfo().getLeaderId();
        TermIndex applied = stateMachine.getLastAppliedTermIndex();
        return new RaftStatus(config.selfId(), leader == null ? null : leader.toString(), current.getInfo().isLeader(),
            current.getInfo().isLeaderReady(), current.getInfo().getCurrentTerm(),
            current.getRaftLog().getLastCommittedIndex(), applied == null ? -1 : applied.getIndex(),
            stateMachine.snapshotIndex(), stateMachine.loadedSnapshotIndex());
    }

    /** Leader and caught up with everything committed before its term: may serve state requests. */
    public boolean isLeaderReady() {
        RaftServer.Division current = division;
        return current != null && current.getInfo().isLeaderReady();
    }

    /** Leaves the group and closes storage and sockets. Blocking. */
    public void close() throws IOException {
        submitter.shutdownNow();
        RaftServer running = server;
        if (running != null) {
            running.close();
        }
    }

    private RaftProperties properties() {
        ControllerPeer self = config.selfRaft();
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setHost(properties, config.bindAddress());
        NettyConfigKeys.Server.setPort(properties, self.port());
        RaftServerConfigKeys.setStorageDir(properties, List.of(new File(config.storePath(), config.selfId())));
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties,
            TimeDuration.valueOf(config.raftElectionTimeoutMinMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties,
            TimeDuration.valueOf(config.raftElectionTimeoutMaxMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, config.snapshotThresholdEntries());
        // Ratis keeps every snapshot file by default; the state is small, two are plenty.
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
        return properties;
    }

    private RaftClientRequest request(byte[] bytes) {
        return RaftClientRequest.newBuilder()
            .setClientId(clientId)
            .setServerId(selfId)
            .setGroupId(groupId)
            .setCallId(nextCallId.incrementAndGet())
            .setMessage(Message.valueOf(ByteString.copyFrom(bytes)))
            .setType(RaftClientRequest.writeRequestType())
            .setTimeoutMs(config.raftCommitTimeoutMs())
            .build();
    }

    private CompletableFuture<RaftClientReply> send(RaftClientRequest request) {
        RaftServer running = server;
        if (running == null) {
            return CompletableFuture.failedFuture(new NotRaftLeaderException("the Raft server is not started"));
        }
        try {
            return running.submitClientRequestAsync(request);
        } catch (IOException e) {
            throw new UncheckedIOException("Raft submit failed", e);
        }
    }

    private StateCodec.EventOutcome outcomeOf(RaftClientReply reply) {
        if (reply.isSuccess()) {
            return codec.decodeOutcome(reply.getMessage().getContent().toByteArray());
        }
        if (reply.getNotLeaderException() != null || reply.getLeaderNotReadyException() != null
            || reply.getLeaderSteppingDownException() != null) {
            throw new NotRaftLeaderException("controller " + config.selfId() + " is not the Raft leader: "
                + reply.getException().getMessage());
        }
        throw new IllegalStateException("Raft did not commit the controller event: " + reply.getException());
    }
}
