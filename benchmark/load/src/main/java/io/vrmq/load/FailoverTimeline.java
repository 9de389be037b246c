package io.vrmq.load;

import io.vrmq.loadcommon.Json;

import java.util.Locale;

import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;

/**
 * The moments of one master failover as {@link FailoverProbe} sees them from outside, each a System.nanoTime() when
 * first observed (0 = not yet): "elected" when the controller leader names another master with a higher masterEpoch;
 * "routed" when the NameServer routes the probe's topic with that broker as id 0 (what producers need); "resynced"
 * when the controller's SyncStateSet again holds the new master and every surviving replica alive (with
 * allAckInSyncStateSet, until then a SEND_OK means only the new master has the message). The first SEND_OK is the
 * sender's. Main thread only.
 */
final class FailoverTimeline {

    private final long killNanos;
    private final String killed;
    private final int killedEpoch;
    private final int survivors;
    private long electedNanos;
    private long routedNanos;
    private long resyncedNanos;
    private String newMaster;
    private int newEpoch;

    /** @param survivors the replicas left after the kill, the new master included */
    FailoverTimeline(long killNanos, String killed, int killedEpoch, int survivors) {
        this.killNanos = killNanos;
        this.killed = killed;
        this.killedEpoch = killedEpoch;
        this.survivors = survivors;
    }

    /** One look at the controller leader and the NameServer for whatever has not been seen yet. */
    void observe(ControllerView view, NettyRemotingClient client, String namesrvAddr, String topic) {
        if (resyncedNanos == 0) {
            BrokerReplicasInfo.ReplicasInfo now = view.replicas();
            long atNanos = System.nanoTime();
            if (electedNanos == 0 && now != null && now.getMasterAddress() != null && !now.getMasterAddress().isEmpty()
                && !now.getMasterAddress().equals(killed) && now.getMasterEpoch() > killedEpoch) {
                electedNanos = atNanos;
                newMaster = now.getMasterAddress();
                newEpoch = now.getMasterEpoch();
            }
            if (electedNanos != 0 && now != null && newMaster.equals(now.getMasterAddress())
                && ControllerView.aliveInSync(now) >= survivors) {
                resyncedNanos = atNanos;
            }
        }
        if (routedNanos == 0) {
            String routedMaster = master(AwaitRoute.route(client, namesrvAddr, topic));
            if (routedMaster != null && !routedMaster.equals(killed)) {
                routedNanos = System.nanoTime();
            }
        }
    }

    boolean isElected() {
        return electedNanos != 0;
    }

    boolean isComplete(long firstOkNanos) {
        return electedNanos != 0 && routedNanos != 0 && resyncedNanos != 0 && firstOkNanos != 0;
    }

    String newMaster() {
        return newMaster;
    }

    /** "elected=…ms routed=…ms resynced=…ms" so far, for progress lines. */
    String describe() {
        return "elected=" + millisOrDash(electedNanos) + " routed=" + millisOrDash(routedNanos) + " resynced="
            + millisOrDash(resyncedNanos);
    }

    /** The JSON fields of the result line (without braces). */
    String jsonFields(long firstOkNanos) {
        return String.format(Locale.ROOT, "\"killed\":%s,\"killedEpoch\":%d,\"newMaster\":%s,\"newEpoch\":%d,"
                + "\"electedMillis\":%d,\"routedMillis\":%d,\"firstOkMillis\":%d,\"resyncMillis\":%d",
            Json.quote(killed), killedEpoch, Json.quote(newMaster), newEpoch, millis(electedNanos),
            millis(routedNanos), millis(firstOkNanos), millis(resyncedNanos));
    }

    /** ms from the kill to {@code nanos}, -1 if it did not happen. */
    long millis(long nanos) {
        return nanos == 0 ? -1 : (nanos - killNanos) / 1_000_000;
    }

    private String millisOrDash(long nanos) {
        return nanos == 0 ? "-" : millis(nanos) + "ms";
    }

    /** The id-0 address of the first broker set in the route, or null. */
    private static String master(TopicRouteData route) {
        if (route == null || route.getBrokerDatas() == null || route.getBrokerDatas().isEmpty()) {
            return null;
        }
        BrokerData set = route.getBrokerDatas().get(0);
        return set.getBrokerAddrs() == null ? null : set.getBrokerAddrs().get(MixAll.MASTER_ID);
    }
}
