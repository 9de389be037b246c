package io.vrmq.broker.transaction;

import io.vrmq.broker.schedule.StoredMessage;

/**
 * One thing a check run does to a half message: {@link CheckVerdict#CHECK} (store a copy that counts
 * {@code checkTimes} checks, then ask the producer) or {@link CheckVerdict#DISCARD}. {@code needsOpRecord} when the
 * run's progress cannot pass this message (an earlier one is still immune), so an op record must say it is handled.
 */
record HalfAction(CheckVerdict verdict, StoredMessage half, int checkTimes, boolean needsOpRecord) {
}
