package io.vrmq.broker.grpc;

import io.vrmq.grpc.proto.Code;

/**
 * The transaction_id this endpoint gives a half message (in the send result and in a transaction check) and takes
 * back in EndTransaction: where the half message is stored, {@code <commitLogOffset>-<tranStateTableOffset>}, all that
 * END_TRANSACTION needs to find it. Apache's proxy keeps such a table in memory instead; carrying it in the id
 * survives a restart of the endpoint and costs no memory. Clients treat it as opaque. Immutable.
 */
record TransactionId(long commitLogOffset, long tranStateTableOffset) {
    private static final String SEPARATOR = "-";

    String format() {
        return commitLogOffset + SEPARATOR + tranStateTableOffset;
    }

    static TransactionId parse(String transactionId) {
        if (transactionId == null || transactionId.isBlank()) {
            throw new GrpcStatusException(Code.INVALID_TRANSACTION_ID, "transaction id is empty");
        }
        String[] parts = transactionId.trim().split(SEPARATOR);
        try {
            if (parts.length == 2) {
                return new TransactionId(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw new GrpcStatusException(Code.INVALID_TRANSACTION_ID, "cannot find transaction data for "
            + transactionId);
    }
}
