package io.vrmq.controller.state;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The controller's own storage formats, JSON: log entries ({@link ControllerEvent}), the reply of an applied entry
 * ({@link EventOutcome}) and the snapshot ({@link Snapshot}, the whole state). Keys sorted and nulls left out, so the
 * same state gives the same bytes. Unknown properties fail the read: a log or snapshot written by a newer version must
 * not be half-understood. Thread-safe once built.
 */
public final class StateCodec {
    /** Bumped when the snapshot layout changes incompatibly. */
    public static final int SNAPSHOT_FORMAT_VERSION = 1;

    private final ObjectMapper mapper = JsonMapper.builder()
        .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .serializationInclusion(JsonInclude.Include.NON_NULL)
        .build();

    public byte[] encodeEvent(ControllerEvent event) {
        return write(event);
    }

    public ControllerEvent decodeEvent(byte[] bytes) {
        return read(bytes, ControllerEvent.class);
    }

    public byte[] encodeOutcome(EventOutcome outcome) {
        return write(outcome);
    }

    public EventOutcome decodeOutcome(byte[] bytes) {
        return read(bytes, EventOutcome.class);
    }

    public void writeSnapshot(ControllerState state, OutputStream out) throws IOException {
        mapper.writeValue(out, new Snapshot(SNAPSHOT_FORMAT_VERSION, state));
    }

    public ControllerState readSnapshot(InputStream in) throws IOException {
        Snapshot snapshot = mapper.readValue(in, Snapshot.class);
        if (snapshot.formatVersion() != SNAPSHOT_FORMAT_VERSION) {
            throw new IOException("snapshot format version " + snapshot.formatVersion() + " is not "
                + SNAPSHOT_FORMAT_VERSION);
        }
        return snapshot.state() == null ? ControllerState.EMPTY : snapshot.state();
    }

    private byte[] write(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    private <T> T read(byte[] bytes, Class<T> type) {
        try {
            return mapper.readValue(bytes, type);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read a " + type.getSimpleName() + " from the controller log: "
                + e.getMessage(), e);
        }
    }

    /** The snapshot file's content. */
    record Snapshot(int formatVersion, ControllerState state) {
    }

    /**
     * What applying a log entry answered its proposer.
     *
     * @param rejection null when the event applied, else why it was stale
     */
    public record EventOutcome(String rejection) {
        public static final EventOutcome ACCEPTED = new EventOutcome(null);

        @JsonIgnore
        public boolean isAccepted() {
            return rejection == null;
        }
    }
}
