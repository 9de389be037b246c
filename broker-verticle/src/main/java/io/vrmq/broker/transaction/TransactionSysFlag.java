package io.vrmq.broker.transaction;

/**
 * The transaction type in bits 2-3 of a message's sysFlag (RocketMQ's MessageSysFlag): 0 not transactional (or a
 * half message as stored in the half topic), 4 prepared, 8 commit, 12 rollback. END_TRANSACTION's commitOrRollback
 * uses the same values. Pure.
 */
public final class TransactionSysFlag {
    public static final int NOT_TYPE = 0;
    public static final int PREPARED_TYPE = 0x1 << 2;
    public static final int COMMIT_TYPE = 0x2 << 2;
    public static final int ROLLBACK_TYPE = 0x3 << 2;
    private static final int TYPE_MASK = 0x3 << 2;

    private TransactionSysFlag() {
    }

    public static int typeOf(int sysFlag) {
        return sysFlag & TYPE_MASK;
    }

    /** {@code sysFlag} with its transaction type replaced by {@code type}; every other bit kept. */
    public static int withType(int sysFlag, int type) {
        return (sysFlag & ~TYPE_MASK) | type;
    }
}
