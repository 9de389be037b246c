package io.vrmq.broker.timer;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vrmq.broker.persist.JsonFile;
import io.vrmq.remoting.json.RemotingJson;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How far the timer service got, written to {@code config/timerProgress.json}. Restart rule: the held messages are
 * the timer-queue entries in [lowOffset, scanOffset) whose slot is after deliveredSlotMs, plus every entry from
 * scanOffset on. The service only writes a snapshot for which this rule is exact (or, after a failed delivery,
 * errs towards delivering again, never towards losing).
 *
 * @param lowOffset        no held message below this queue offset
 * @param scanOffset       entries below this were read into the index
 * @param deliveredSlotMs  every scanned entry with a slot up to this was delivered, none after it
 */
record TimerProgress(long lowOffset, long scanOffset, long deliveredSlotMs) {
    static final TimerProgress FIRST_START = new TimerProgress(0, 0, -1);

    /** The progress file of a broker. Thread-safe. */
    static final class File {
        private final JsonFile file;
        private final RemotingJson json;

        File(JsonFile file, RemotingJson json) {
            this.file = file;
            this.json = json;
        }

        Future<TimerProgress> load() {
            return file.read(bytes -> {
                if (bytes == null || bytes.length() == 0) {
                    return FIRST_START;
                }
                JsonNode root = json.decode(bytes, JsonNode.class);
                return new TimerProgress(root.path("lowOffset").asLong(0), root.path("scanOffset").asLong(0),
                    root.path("deliveredSlotMs").asLong(-1));
            });
        }

        Future<Void> write(TimerProgress progress) {
            Map<String, Long> fields = new LinkedHashMap<>();
            fields.put("lowOffset", progress.lowOffset());
            fields.put("scanOffset", progress.scanOffset());
            fields.put("deliveredSlotMs", progress.deliveredSlotMs());
            return file.write(() -> json.encode(fields));
        }

        String path() {
            return file.path();
        }
    }
}
