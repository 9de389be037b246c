package io.vrmq.controller.raft;

import io.vrmq.controller.state.ControllerEvent;
import io.vrmq.controller.state.ControllerState;
import io.vrmq.controller.state.StateCodec;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The Ratis state machine of the controller: applies committed {@link ControllerEvent}s to the
 * {@link ControllerState} and answers each with its {@link StateCodec.EventOutcome}; writes and loads the whole state
 * as one snapshot file, named as {@link SimpleStateMachineStorage} expects ({@code snapshot.<term>_<index>} with an
 * MD5 file beside it), so Ratis can also ship it to a follower that is too far behind (install snapshot).
 *
 * <p>Threads: Ratis calls {@code applyTransaction}, {@code takeSnapshot} and {@code reinitialize} one at a time on its
 * state machine updater thread, the only writer of {@link #state}. Any thread may read {@link #state()}: it is an
 * immutable value behind a volatile reference. The leader listener runs on a Ratis thread.
 */
public final class ControllerStateMachine extends BaseStateMachine {
    private static final Logger log = LoggerFactory.getLogger(ControllerStateMachine.class);

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final StateCodec codec;
    private final Consumer<String> leaderListener;
    private volatile ControllerState state = ControllerState.EMPTY;
    private volatile long snapshotIndex = -1;
    private volatile long loadedSnapshotIndex = -1;

    /** @param leaderListener told the new leader's peer id (null when unknown) each time it changes */
    public ControllerStateMachine(StateCodec codec, Consumer<String> leaderListener) {
        this.codec = codec;
        this.leaderListener = leaderListener;
    }

    public ControllerState state() {
        return state;
    }

    /** Index of the newest snapshot written or loaded, -1 if none. */
    public long snapshotIndex() {
        return snapshotIndex;
    }

    /** Index of the snapshot this node started (or was re-initialised) from, -1 if none. */
    public long loadedSnapshotIndex() {
        return loadedSnapshotIndex;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        load(storage.getLatestSnapshot());
    }

    /** After Ratis installed a snapshot from the leader. */
    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        RaftProtos.LogEntryProto entry = transaction.getLogEntry();
        ControllerEvent event = codec.decodeEvent(entry.getStateMachineLogEntry().getLogData().toByteArray());
        ControllerState.Applied applied = state.apply(event);
        state = applied.state();
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        if (!applied.isAccepted()) {
            log.info("log entry {} rejected as stale: {}", entry.getIndex(), applied.rejection());
        }
        StateCodec.EventOutcome outcome = applied.isAccepted() ? StateCodec.EventOutcome.ACCEPTED
            : new StateCodec.EventOutcome(applied.rejection());
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(codec.encodeOutcome(outcome))));
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return -1;
        }
        File snapshotFile = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        // Ratis creates the state machine directory lazily; the first snapshot may come before anything else wrote it.
        Files.createDirectories(snapshotFile.toPath().getParent());
        Path temporary = snapshotFile.toPath().resolveSibling(snapshotFile.getName() + ".tmp");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary))) {
            codec.writeSnapshot(state, out);
        }
        Files.move(temporary, snapshotFile.toPath(), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(snapshotFile);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(snapshotFile.toPath(), md5), last));
        snapshotIndex = last.getIndex();
        log.info("controller snapshot written at term {} index {}: {}", last.getTerm(), last.getIndex(),
            snapshotFile);
        return last.getIndex();
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        leaderListener.accept(newLeaderId == null ? null : newLeaderId.toString());
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        Path file = snapshot.getFile().getPath();
        MD5Hash expected = snapshot.getFile().getFileDigest();
        if (expected != null) {
            MD5FileUtil.verifySavedMD5(file.toFile(), expected);
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            state = codec.readSnapshot(in);
        }
        setLastAppliedTermIndex(snapshot.getTermIndex());
        snapshotIndex = snapshot.getIndex();
        loadedSnapshotIndex = snapshot.getIndex();
        log.info("controller state loaded from snapshot {} (term {} index {})", file, snapshot.getTerm(),
            snapshot.getIndex());
    }
}
