package io.vrmq.controller.state;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StateCodecTest {
    private final StateCodec codec = new StateCodec();

    @Test
    void everyEventSurvivesTheLog() {
        List<ControllerEvent> events = List.of(
            new ApplyBrokerIdEvent("c1", "b1", 1, "127.0.0.1:1", "127.0.0.1:1;5"),
            new UpdateBrokerAddressEvent("c1", "b1", 1, "127.0.0.1:2"),
            new AlterSyncStateSetEvent("b1", 1, 2, 3, new TreeSet<>(Set.of(1L, 2L))),
            new ElectMasterEvent("b1", 2L, 1, 1),
            new ElectMasterEvent("b1", null, 1, 1),
            new CleanBrokerDataEvent("b1", new TreeSet<>(Set.of(2L))),
            new CleanBrokerDataEvent("b1", null));
        for (ControllerEvent event : events) {
            assertEquals(event, codec.decodeEvent(codec.encodeEvent(event)));
        }
    }

    @Test
    void theSnapshotHoldsTheWholeStateAndTheSameStateWritesTheSameBytes() throws IOException {
        ControllerState state = ControllerState.EMPTY;
        state = state.apply(new ApplyBrokerIdEvent("c1", "b1", 1, "a:1", "a:1;1")).state();
        state = state.apply(new ApplyBrokerIdEvent("c1", "b1", 2, "a:2", "a:2;2")).state();
        state = state.apply(new ApplyBrokerIdEvent("c1", "b0", 1, "z:1", "z:1;1")).state();
        state = state.apply(new ElectMasterEvent("b1", 2L, 0, 0)).state();
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        codec.writeSnapshot(state, first);
        ControllerState read = codec.readSnapshot(new ByteArrayInputStream(first.toByteArray()));
        assertEquals(state, read);
        ByteArrayOutputStream second = new ByteArrayOutputStream();
        codec.writeSnapshot(read, second);
        assertArrayEquals(first.toByteArray(), second.toByteArray());
    }

    @Test
    void aSnapshotOfAnotherFormatVersionIsRefused() {
        byte[] future = "{\"formatVersion\":99,\"state\":{}}".getBytes(StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> codec.readSnapshot(new ByteArrayInputStream(future)));
    }

    @Test
    void anEntryWithUnknownFieldsIsNotHalfRead() {
        byte[] entry = ("{\"type\":\"electMaster\",\"brokerName\":\"b1\",\"masterEpoch\":1,"
            + "\"syncStateSetEpoch\":1,\"x\":1}").getBytes(StandardCharsets.UTF_8);
        assertThrows(IllegalStateException.class, () -> codec.decodeEvent(entry));
    }
}
