package io.vrmq.broker.http;

import io.vrmq.broker.metrics.RateWindow;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The per-second rates behind putTps/getTps in /api/v1/broker/runtime (a clock is passed in). */
class RateWindowTest {

    @Test
    void rateIsZeroBeforeTheFirstSample() {
        assertEquals(0.0, new RateWindow(10).perSecond(1_000, 50, 10_000));
    }

    @Test
    void rateIsTheGrowthSinceTheOldestSampleInsideTheWindow() {
        RateWindow window = new RateWindow(100);
        for (int second = 0; second <= 20; second++) {
            window.sample(second * 1_000L, second * 10L);
        }
        assertEquals(10.0, window.perSecond(20_000, 200, 10_000), 1e-9);
        assertEquals(36.0, window.perSecond(22_000, 350, 5_000), 1e-9);
    }

    @Test
    void windowLongerThanTheSamplesKeptUsesTheOldestKept() {
        RateWindow window = new RateWindow(3);
        for (int second = 0; second < 10; second++) {
            window.sample(second * 1_000L, second * 4L);
        }
        // kept: seconds 7, 8, 9
        assertEquals(4.0, window.perSecond(9_000, 36, 600_000), 1e-9);
    }

    @Test
    void historyHasOnePointPerStepWithTheRateOverThatStep() {
        RateWindow window = new RateWindow(100);
        for (int second = 0; second <= 10; second++) {
            window.sample(second * 1_000L, second <= 5 ? second * 2L : 10 + (second - 5) * 6L);
        }
        List<RateWindow.RatePoint> history = window.history(5_000);
        assertEquals(List.of(new RateWindow.RatePoint(5_000, 2.0), new RateWindow.RatePoint(10_000, 6.0)), history);
    }

    @Test
    void historyOfTheSamplesKeptStartsAtTheOldestKept() {
        RateWindow window = new RateWindow(4);
        for (int second = 0; second < 10; second++) {
            window.sample(second * 1_000L, second * 3L);
        }
        // kept: seconds 6 to 9
        assertEquals(List.of(new RateWindow.RatePoint(7_000, 3.0), new RateWindow.RatePoint(8_000, 3.0),
            new RateWindow.RatePoint(9_000, 3.0)), window.history(1_000));
        assertEquals(List.of(), new RateWindow(4).history(1_000));
    }
}
