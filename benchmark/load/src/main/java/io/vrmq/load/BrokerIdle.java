package io.vrmq.load;

import io.vrmq.loadcommon.ProcessStats;

import java.util.concurrent.TimeUnit;

/**
 * The broker while a consumer's pulls are held with nothing to read: its CPU time over a fixed interval and its
 * anonymous memory at the end (/proc), for the held-long-poll row of the scale table. Measured on the main thread,
 * which only waits meanwhile (the interval is the measurement, not a synchronisation).
 *
 * @param seconds          the interval; 0 = not measured (then both figures are -1)
 * @param brokerCpuMillis  the broker's user + system CPU time over the interval
 * @param brokerRssAnonKib the broker's RssAnon at the end of the interval
 */
record BrokerIdle(int seconds, long brokerCpuMillis, long brokerRssAnonKib) {

    static final BrokerIdle NONE = new BrokerIdle(0, -1, -1);

    /** Waits {@code seconds} and measures; {@link #NONE} when {@code seconds} is 0 or there is no broker pid. */
    static BrokerIdle measure(String brokerPid, int seconds, long heldPulls) throws InterruptedException {
        if (seconds == 0 || brokerPid == null) {
            return NONE;
        }
        System.out.println("idle: the broker holds the pulls of " + heldPulls + " queues for " + seconds + " s");
        long cpuStart = ProcessStats.cpuMillis(brokerPid);
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        long cpuMillis = ProcessStats.cpuMillis(brokerPid) - cpuStart;
        long rssAnonKib = ProcessStats.statusKib(brokerPid, "RssAnon");
        System.out.printf("idle: broker CPU %d ms in %d s, anon RSS %d KiB%n", cpuMillis, seconds, rssAnonKib);
        return new BrokerIdle(seconds, cpuMillis, rssAnonKib);
    }
}
