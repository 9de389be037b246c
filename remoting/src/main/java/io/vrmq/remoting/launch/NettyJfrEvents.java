package io.vrmq.remoting.launch;

/**
 * Netty's allocator defines JFR events (disabled in every recording setting unless asked for by name), and checking
 * whether one is enabled registers the event classes with JFR: the first buffer allocated, which is the broker's
 * first registration, waited for JFR to read its metadata, tens of milliseconds (hundreds on a busy machine) and
 * some 90 classes on the path to the first routed send (benchmark/RESULTS.md, "Start after the seventh session").
 * Off unless {@code -Dio.netty.jfr.enabled} says otherwise; a recording still sees the JVM's events and ours.
 * Loads nothing (not even logging): it must run before Netty's first use, which reads the property once.
 */
final class NettyJfrEvents {
    static final String PROPERTY = "io.netty.jfr.enabled";

    private NettyJfrEvents() {
    }

    static void offUnlessAsked() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "false");
        }
    }
}
