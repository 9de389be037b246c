package io.vrmq.compat.broker.transaction;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * A TransactionListener driven by each message's {@link #OUTCOME} user property: COMMIT, ROLLBACK, UNKNOWN (the local
 * transaction ends undecided; a broker check then hears COMMIT) or HOLD (the local transaction waits for
 * {@link #release} and then commits). Records when each body was checked. Called on the client's threads.
 */
final class ScriptedTransactionListener implements TransactionListener {

    static final String OUTCOME = "txOutcome";
    private static final long HOLD_LIMIT_SECONDS = 30;

    private final Map<String, Long> checkedAtMs = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> entered = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> released = new ConcurrentHashMap<>();

    @Override
    public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
        String body = body(message);
        switch (message.getUserProperty(OUTCOME)) {
            case "COMMIT":
                return LocalTransactionState.COMMIT_MESSAGE;
            case "ROLLBACK":
                return LocalTransactionState.ROLLBACK_MESSAGE;
            case "HOLD":
                latch(entered, body).countDown();
                return awaitRelease(body);
            default:
                return LocalTransactionState.UNKNOW;
        }
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt message) {
        checkedAtMs.putIfAbsent(body(message), System.currentTimeMillis());
        return "UNKNOWN".equals(message.getUserProperty(OUTCOME)) ? LocalTransactionState.COMMIT_MESSAGE
            : LocalTransactionState.UNKNOW;
    }

    /** When the broker first asked about {@code body}, or null if it never did. */
    Long checkedAtMs(String body) {
        return checkedAtMs.get(body);
    }

    /** Waits until the HOLD transaction of {@code body} runs: its half message is stored by then. */
    void awaitHeld(String body) throws InterruptedException {
        if (!latch(entered, body).await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("the local transaction of " + body + " never ran");
        }
    }

    void release(String body) {
        latch(released, body).countDown();
    }

    private LocalTransactionState awaitRelease(String body) {
        try {
            return latch(released, body).await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)
                ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.ROLLBACK_MESSAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
    }

    private static CountDownLatch latch(Map<String, CountDownLatch> latches, String body) {
        return latches.computeIfAbsent(body, key -> new CountDownLatch(1));
    }

    private static String body(Message message) {
        return new String(message.getBody(), java.nio.charset.StandardCharsets.UTF_8);
    }
}
