package io.vrmq.broker.admin;

import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The +name=value / -name modification list of UPDATE_AND_CREATE_TOPIC. */
class TopicAttributesTest {

    @Test
    void plusSetsAndMinusRemovesWhileOtherAttributesStay() {
        Map<String, String> current = Map.of("keep", "1", "drop", "2", "change", "3");
        assertEquals(Map.of("keep", "1", "change", "4", "added", "5"),
            TopicAttributes.apply(current, "+change=4,-drop,+added=5"));
    }

    @Test
    void anEntryWithoutSignIsInvalidParameter() {
        RemotingCommandException error = assertThrows(RemotingCommandException.class,
            () -> TopicAttributes.apply(Map.of(), "message.type=FIFO"));
        assertEquals(ResponseCode.INVALID_PARAMETER, error.responseCode());
    }
}
