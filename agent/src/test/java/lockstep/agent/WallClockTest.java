package lockstep.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class WallClockTest {

    @Test
    void awaitInstantNeverReturnsBeforeTheInstant() {
        for (int i = 0; i < 5; i++) {
            long at = WallClock.nowNanos() + 30_000_000L + i * 3_000_000L;
            assertThat(WallClock.awaitInstant(at, () -> false)).isTrue();
            assertThat(WallClock.nowNanos()).isGreaterThanOrEqualTo(at);
        }
    }

    @Test
    void anInstantInThePastReturnsAtOnce() {
        assertThat(WallClock.awaitInstant(WallClock.nowNanos() - 1_000_000_000L, () -> false)).isTrue();
    }

    @Test
    void cancellationEndsTheWaitLongBeforeTheInstant() throws Exception {
        AtomicBoolean cancelled = new AtomicBoolean();
        long at = WallClock.nowNanos() + 60_000_000_000L;
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            cancelled.set(true);
        });
        canceller.start();
        assertThat(WallClock.awaitInstant(at, cancelled::get)).isFalse();
        assertThat(WallClock.nowNanos()).isLessThan(at - 50_000_000_000L);
        canceller.join();
    }
}
