package io.vrmq.namesrv.processor;

import io.vrmq.remoting.json.RemotingJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/** The warm-up's samples go through a fresh mapper both ways: it fails if a body type stops (de)serializing. */
class JsonWarmUpTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void samplesWriteAndReadWithAFreshMapper() {
        assertDoesNotThrow(() -> JsonWarmUp.run(new RemotingJson()));
    }
}
