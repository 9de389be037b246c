package io.vrmq.compat.support;

/**
 * A NameServer that a test started as a child JVM, listening on loopback: ours or Apache's, see
 * {@link NameServerKind}. Test thread only.
 */
public final class RunningNameServer implements AutoCloseable {

    private final NameServerKind kind;
    private final ChildJvm process;
    private final int listenPort;

    RunningNameServer(NameServerKind kind, ChildJvm process, int listenPort) {
        this.kind = kind;
        this.process = process;
        this.listenPort = listenPort;
    }

    /** "127.0.0.1:port", the form brokers and clients take in namesrvAddr. */
    public String address() {
        return "127.0.0.1:" + listenPort;
    }

    public int listenPort() {
        return listenPort;
    }

    public NameServerKind kind() {
        return kind;
    }

    public ChildJvm process() {
        return process;
    }

    /** SIGTERM and wait for the exit, as an operator stops it; fails if it had to be killed instead. */
    public void stop() {
        if (!process.stop()) {
            throw new AssertionError(this + " did not exit on SIGTERM and was killed" + process.describeLog());
        }
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return kind + " NameServer at " + address();
    }
}
