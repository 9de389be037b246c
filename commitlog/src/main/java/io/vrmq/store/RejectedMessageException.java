package io.vrmq.store;

/** An append refused before anything was written; carries the status and a remark with the numbers. */
final class RejectedMessageException extends Exception {
    private final AppendStatus status;

    RejectedMessageException(AppendStatus status, String remark) {
        super(remark, null, false, false);   // expected outcome: no stack trace to fill
        this.status = status;
    }

    AppendStatus status() {
        return status;
    }
}
