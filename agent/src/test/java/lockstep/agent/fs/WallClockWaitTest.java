package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;

class WallClockWaitTest {

  @Test
  void neverReturnsBeforeTheInstant() {
    for (int i = 0; i < 5; i++) {
      long at = WallClock.nowNanos() + 30_000_000L + i * 3_000_000L;
      assertThat(WallClockWait.until(at, () -> false)).isTrue();
      assertThat(WallClock.nowNanos()).isGreaterThanOrEqualTo(at);
    }
  }

  @Test
  void anInstantInThePastReturnsAtOnce() {
    assertThat(WallClockWait.until(WallClock.nowNanos() - 1_000_000_000L, () -> false)).isTrue();
  }

  @Test
  void cancellationEndsTheWaitLongBeforeTheInstant() throws Exception {
    AtomicBoolean cancelled = new AtomicBoolean();
    long at = WallClock.nowNanos() + 60_000_000_000L;
    Thread canceller =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              cancelled.set(true);
            });
    canceller.start();
    assertThat(WallClockWait.until(at, cancelled::get)).isFalse();
    assertThat(WallClock.nowNanos()).isLessThan(at - 50_000_000_000L);
    canceller.join();
  }
}
