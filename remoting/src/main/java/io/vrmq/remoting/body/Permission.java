package io.vrmq.remoting.body;

/** RocketMQ's permission bits on topics and brokers. */
public final class Permission {
    public static final int INHERIT = 1;
    public static final int WRITE = 1 << 1;
    public static final int READ = 1 << 2;
    public static final int READ_WRITE = READ | WRITE;

    private Permission() {
    }

    public static boolean isReadable(int perm) {
        return (perm & READ) == READ;
    }

    public static boolean isWritable(int perm) {
        return (perm & WRITE) == WRITE;
    }
}
