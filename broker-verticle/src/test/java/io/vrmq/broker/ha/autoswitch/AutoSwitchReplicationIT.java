package io.vrmq.broker.ha.autoswitch;

import io.vertx.core.Future;
import io.vrmq.broker.ha.SlaveAck;
import io.vrmq.remoting.body.controller.SyncStateSetBody;
import io.vrmq.store.AppendResult;
import io.vrmq.store.epoch.EpochEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.vrmq.broker.ha.autoswitch.AutoSwitchNode.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Controller-mode replication between real stores on loopback; the test plays the controller. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AutoSwitchReplicationIT {
    private final List<AutoSwitchNode> nodes = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopAll() {
        nodes.forEach(AutoSwitchNode::close);
    }

    private AutoSwitchNode node(Path dir) {
        return node(dir, AutoSwitchNode.config(false, 1, 15_000));
    }

    private AutoSwitchNode node(Path dir, AutoSwitchConfig config) {
        AutoSwitchNode node = AutoSwitchNode.start(dir, config, AutoSwitchNode.ha(3_000));
        nodes.add(node);
        return node;
    }

    private static SyncStateSetBody set(int epoch, Long... ids) {
        return new SyncStateSetBody(Set.of(ids), epoch);
    }

    @Test
    void aSlaveHandshakesAndCatchesUpAcrossSegmentRolls(@TempDir Path a, @TempDir Path b) {
        AutoSwitchNode master = node(a);
        AutoSwitchNode slave = node(b);
        master.service.changeToMaster(1, 1, set(1, 1L)).await();
        master.appendMany(0, 150);
        slave.service.changeToSlave(2, 1, master.haAddress()).await();
        master.appendMany(150, 150);
        assertTrue(master.maxOffset() > 3L * AutoSwitchNode.SEGMENT_BYTES, "rolled several segments");

        await(() -> slave.maxOffset() == master.maxOffset(), "slave caught up");
        slave.assertSameCommitLogAs(master);
        assertEquals(master.epochs.entries(), slave.epochs.entries());
        assertEquals(List.of(EpochEntry.open(1, 0)), slave.epochs.entries());
        await(() -> slave.service.confirmOffset() == master.maxOffset(), "the master's confirm offset reached");
        for (int queueId = 0; queueId < 2; queueId++) {
            int id = queueId;
            await(() -> slave.readable(id).size() == master.readable(id).size(), "slave queue " + id);
            assertEquals(master.readable(queueId), slave.readable(queueId));
        }
        assertTrue(slave.service.isMasterLinkUp());
        assertEquals(master.maxOffset(), slave.service.masterOffsetSeen());
    }

    @Test
    void anOldMasterWithUnreplicatedMessagesIsTruncatedToTheConsistentPointWhenItFollowsTheNewMaster(
            @TempDir Path a, @TempDir Path b) {
        AutoSwitchNode oldMaster = node(a);
        AutoSwitchNode newMaster = node(b);
        oldMaster.service.changeToMaster(1, 1, set(1, 1L)).await();
        oldMaster.appendMany(0, 100);
        newMaster.service.changeToSlave(2, 1, oldMaster.haAddress()).await();
        await(() -> newMaster.maxOffset() == oldMaster.maxOffset(), "replicated");
        long pointOfSplit = newMaster.maxOffset();

        newMaster.service.changeToMaster(2, 2, set(2, 2L)).await();   // the old master is cut off
        oldMaster.appendMany(100, 60);                                   // never replicated
        List<AppendResult> newWrites = newMaster.appendMany(1_000, 40);
        assertEquals(pointOfSplit, newWrites.get(0).commitLogOffset());
        assertTrue(oldMaster.maxOffset() > pointOfSplit);

        oldMaster.service.changeToSlave(1, 2, newMaster.haAddress()).await();
        await(() -> oldMaster.maxOffset() == newMaster.maxOffset()
            && oldMaster.epochs.entries().equals(newMaster.epochs.entries()), "old master follows the new one");

        oldMaster.assertSameCommitLogAs(newMaster);
        assertEquals(List.of(new EpochEntry(1, 0, pointOfSplit), EpochEntry.open(2, pointOfSplit)),
            oldMaster.epochs.entries());
        for (int queueId = 0; queueId < 2; queueId++) {
            int id = queueId;
            await(() -> oldMaster.readable(id).size() == newMaster.readable(id).size(), "queue " + id);
            assertEquals(newMaster.readable(queueId), oldMaster.readable(queueId), "the unreplicated are gone");
            assertEquals(newMaster.store.getMaxOffsetInQueue(AutoSwitchNode.TOPIC, queueId),
                oldMaster.store.getMaxOffsetInQueue(AutoSwitchNode.TOPIC, queueId));
        }
    }

    @Test
    void twoEpochsReachAFreshSlaveAsTwoEntries(@TempDir Path a, @TempDir Path b) {
        AutoSwitchNode master = node(a);
        master.service.changeToMaster(1, 1, set(1, 1L)).await();
        master.appendMany(0, 80);
        long secondEpochStart = master.maxOffset();
        master.service.changeToMaster(1, 3, set(2, 1L)).await();   // re-confirmed with a newer epoch
        master.appendMany(80, 80);
        assertEquals(List.of(new EpochEntry(1, 0, secondEpochStart), EpochEntry.open(3, secondEpochStart)),
            master.epochs.entries());

        AutoSwitchNode slave = node(b);
        slave.service.changeToSlave(2, 3, master.haAddress()).await();
        await(() -> slave.maxOffset() == master.maxOffset(), "caught up");
        assertEquals(master.epochs.entries(), slave.epochs.entries());
        slave.assertSameCommitLogAs(master);
    }

    @Test
    void aCaughtUpSlaveIsProposedForTheSetAndAdoptedWhenTheControllerAnswers(@TempDir Path a, @TempDir Path b) {
        AutoSwitchNode master = node(a);
        List<Set<Long>> proposals = new CopyOnWriteArrayList<>();
        master.service.onSyncStateSetProposal(proposals::add);
        master.service.changeToMaster(1, 1, set(1, 1L)).await();
        master.appendMany(0, 50);
        AutoSwitchNode slave = node(b);
        slave.service.changeToSlave(2, 1, master.haAddress()).await();

        await(() -> proposals.contains(Set.of(1L, 2L)), "expansion proposed");
        assertEquals(Set.of(1L), master.service.syncStateSet(), "not adopted before the controller answers");
        master.service.setSyncStateSet(Set.of(1L, 2L), 2);
        await(() -> master.service.syncStateSet().equals(Set.of(1L, 2L)), "adopted");
        assertEquals(2, master.service.syncStateSetEpoch());
        assertEquals(Set.of(1L, 2L), master.service.maybeShrinkSyncStateSet(), "a caught-up slave stays");
        HaRuntimeInfoBody info = master.service.haRuntimeInfo();
        assertTrue(info.master());
        assertEquals(1, info.inSyncSlaveNums());
        assertTrue(info.haConnectionInfo().get(0).inSync());
    }

    @Test
    void aSlaveWhoseLinkDropsIsProposedOutAndLeavesTheSetWhenTheControllerAgrees(@TempDir Path a, @TempDir Path b) {
        AutoSwitchNode master = node(a);
        List<Set<Long>> proposals = new CopyOnWriteArrayList<>();
        master.service.onSyncStateSetProposal(proposals::add);
        master.service.changeToMaster(1, 1, set(2, 1L, 2L)).await();
        master.appendMany(0, 20);
        AutoSwitchNode slave = node(b);
        slave.service.changeToSlave(2, 1, master.haAddress()).await();
        await(() -> slave.maxOffset() == master.maxOffset(), "caught up");
        assertEquals(Set.of(1L, 2L), master.service.maybeShrinkSyncStateSet());

        slave.service.updateMasterHaAddress("127.0.0.1:1");   // the slave goes away from this master
        await(() -> proposals.contains(Set.of(1L)), "the shrink is proposed");
        assertEquals(Set.of(1L, 2L), master.service.syncStateSet(), "until the controller agrees");
        assertEquals(Set.of(1L), master.service.maybeShrinkSyncStateSet());

        master.service.setSyncStateSet(Set.of(1L), 3);
        await(() -> master.service.syncStateSet().equals(Set.of(1L)), "the controller's answer adopted");
    }

    @Test
    void withAllAckASendCompletesOnlyOnceEverySetMemberHasItAndNothingBeyondTheConfirmOffsetIsReadable(
            @TempDir Path a, @TempDir Path b, @TempDir Path c) throws Exception {
        AutoSwitchConfig allAck = AutoSwitchNode.config(true, 1, 15_000);
        AutoSwitchNode master = node(a, allAck);
        AutoSwitchNode fast = node(b, allAck);
        AutoSwitchNode slow = node(c, allAck);
        master.service.changeToMaster(1, 1, set(1, 1L)).await();
        master.appendMany(0, 30);
        fast.service.changeToSlave(2, 1, master.haAddress()).await();
        slow.service.changeToSlave(3, 1, master.haAddress()).await();
        await(() -> fast.maxOffset() == master.maxOffset() && slow.maxOffset() == master.maxOffset(), "caught up");
        master.service.setSyncStateSet(Set.of(1L, 2L, 3L), 2);
        await(() -> master.service.syncStateSet().equals(Set.of(1L, 2L, 3L)), "adopted");
        await(() -> master.service.confirmOffset() == master.maxOffset(), "confirmed");

        CountDownLatch release = new CountDownLatch(1);
        slow.access.afterQueuedWrites(() -> release.await(30, TimeUnit.SECONDS));   // the slow one stops writing
        try {
            assertHeldBackUntilReleased(master, fast, release);
        } finally {
            release.countDown();
        }
        CountDownLatch stuck = new CountDownLatch(1);
        slow.access.afterQueuedWrites(() -> stuck.await(30, TimeUnit.SECONDS));
        try {
            AppendResult late = master.append(1, 501, 300);
            assertEquals(SlaveAck.TIMEOUT, master.service.awaitReplicas(late.commitLogOffset() + late.sizeBytes())
                .await(), "no ack from one member within slaveTimeout");
        } finally {
            stuck.countDown();
        }
    }

    private static void assertHeldBackUntilReleased(AutoSwitchNode master, AutoSwitchNode fast, CountDownLatch release) {
        long confirmedBefore = master.maxOffset();
        AppendResult held = master.append(0, 500, 300);
        long end = held.commitLogOffset() + held.sizeBytes();
        Future<SlaveAck> ack = master.service.awaitReplicas(end);
        await(() -> fast.maxOffset() == master.maxOffset(), "the fast slave has it");
        await(() -> fast.service.confirmOffset() == confirmedBefore, "fast slave learnt the confirm offset");

        assertTrue(!ack.isComplete(), "one member of the set has not acknowledged");
        assertEquals(confirmedBefore, master.service.confirmOffset(), "confirm offset = the lowest ack");
        await(() -> master.store.dispatchedOffset() == confirmedBefore, "master dispatch at the confirm offset");
        await(() -> fast.store.dispatchedOffset() == confirmedBefore, "slave dispatch at the confirm offset");
        assertTrue(!master.readable(0).contains(held.commitLogOffset()), "not readable on the master");
        assertTrue(!fast.readable(0).contains(held.commitLogOffset()), "not readable on a slave");

        release.countDown();
        assertEquals(SlaveAck.OK, ack.await());
        assertEquals(end, master.service.confirmOffset());
        await(() -> master.readable(0).contains(held.commitLogOffset()), "readable on the master once confirmed");
        await(() -> fast.readable(0).contains(held.commitLogOffset()), "readable on the slave once confirmed");
    }

    @Test
    void aSlaveThatStopsCatchingUpLeavesTheShrunkSetAfterHaMaxTimeSlaveNotCatchup(@TempDir Path a) throws Exception {
        AutoSwitchNode master = node(a, AutoSwitchNode.config(false, 1, 500));
        master.service.changeToMaster(1, 1, set(2, 1L, 3L)).await();
        master.appendMany(0, 20);
        try (java.net.Socket slave = new java.net.Socket()) {
            slave.setReceiveBufferSize(4_096);
            slave.connect(new java.net.InetSocketAddress("127.0.0.1", master.haPort));
            java.io.DataOutputStream out = new java.io.DataOutputStream(slave.getOutputStream());
            java.io.DataInputStream in = new java.io.DataInputStream(slave.getInputStream());
            out.write(java.nio.ByteBuffer.allocate(16).putInt(1).putShort((short) 0).putShort((short) 0).putLong(3)
                .array());
            in.readFully(new byte[20 + 12]);
            out.write(java.nio.ByteBuffer.allocate(12).putInt(2).putLong(0).array());
            long max = master.maxOffset();
            for (long read = 0; read < max; ) {   // a caught-up raw slave
                in.readInt();
                int size = in.readInt();
                in.readFully(new byte[28 + size]);
                read += size;
            }
            out.write(java.nio.ByteBuffer.allocate(12).putInt(2).putLong(max).array());
            await(() -> master.service.maybeShrinkSyncStateSet().equals(Set.of(1L, 3L)), "caught up: kept");

            // It stops reading and acking; the master fills the link until its write queue is full.
            for (int round = 0; round < 40 && master.service.maybeShrinkSyncStateSet().contains(3L); round++) {
                for (int i = 0; i < 50; i++) {
                    master.append(i % 2, 1_000 + round * 50 + i, 12_000);
                }
            }
            await(() -> !master.service.maybeShrinkSyncStateSet().contains(3L), "not caught up for 500 ms");
            assertEquals(Set.of(1L), master.service.maybeShrinkSyncStateSet());
            assertEquals(Set.of(1L, 3L), master.service.syncStateSet(), "the controller decides; until then, kept");
        }
    }

    @Test
    void aSetSmallerThanMinInSyncReplicasRefusesSends(@TempDir Path a) {
        AutoSwitchNode master = node(a, AutoSwitchNode.config(false, 2, 15_000));
        master.service.changeToMaster(1, 1, set(1, 1L)).await();
        AppendResult written = master.append(0, 1, 100);
        assertTrue(!master.service.hasEnoughInSyncReplicas());
        assertEquals(SlaveAck.IN_SYNC_REPLICAS_NOT_ENOUGH,
            master.service.awaitReplicas(written.commitLogOffset() + written.sizeBytes()).await());
        master.service.setSyncStateSet(Set.of(1L, 2L), 2);
        await(master.service::hasEnoughInSyncReplicas, "two in sync");
    }

    @Test
    void aMasterRestartedInTheSameEpochKeepsItsEpochStart(@TempDir Path a) {
        AutoSwitchNode first = node(a);
        first.service.changeToMaster(1, 4, set(1, 1L)).await();
        first.appendMany(0, 30);
        nodes.remove(first);
        first.close();
        AutoSwitchNode again = node(a);
        again.service.changeToMaster(1, 4, set(1, 1L)).await();
        assertEquals(List.of(EpochEntry.open(4, 0)), again.epochs.entries(), "not relabelled from the max offset");
        again.appendMany(30, 5);
    }

    @Test
    void anEpochBelowTheLastInTheEpochFileIsRefused(@TempDir Path a) {
        AutoSwitchNode node = node(a);
        node.service.changeToMaster(1, 5, set(1, 1L)).await();
        node.append(0, 1, 100);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> node.service.changeToSlave(1, 4, "127.0.0.1:1").await());
        assertTrue(refused.getMessage().contains("below the last epoch 5"), refused.getMessage());
        assertThrows(IllegalStateException.class, () -> node.service.changeToMaster(1, 4, set(2, 1L)).await());
        assertEquals(AutoSwitchHaService.Role.MASTER, node.service.role());
    }
}
