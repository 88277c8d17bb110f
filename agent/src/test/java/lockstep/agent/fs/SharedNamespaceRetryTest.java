package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import jnr.constants.platform.Errno;
import org.junit.jupiter.api.Test;

class SharedNamespaceRetryTest {
  private final List<Long> pauses = new ArrayList<>();
  private final SharedNamespaceRetry retry = new SharedNamespaceRetry(pauses::add);

  private static PosixException failure(Errno errno) {
    return Posix.error("open", "/root/d/.lockstep", errno.intValue());
  }

  @Test
  void aWalkThatFailsWithEnoentOrEstaleForAMomentIsWalkedAgainWithADoublingPause() {
    AtomicInteger calls = new AtomicInteger();
    String got =
        retry.get(
            "make d",
            () ->
                switch (calls.incrementAndGet()) {
                  case 1 -> throw failure(Errno.ENOENT);
                  case 2 -> throw failure(Errno.ESTALE);
                  default -> "made";
                });
    assertThat(got).isEqualTo("made");
    assertThat(calls).hasValue(3);
    assertThat(pauses)
        .containsExactly(
            SharedNamespaceRetry.FIRST_PAUSE_NANOS, 2 * SharedNamespaceRetry.FIRST_PAUSE_NANOS);
  }

  /** The retry of a call that always fails with {@code errno}, counting its calls. */
  private Object alwaysFailing(Errno errno, AtomicInteger calls) {
    return retry.get(
        "make d",
        () -> {
          calls.incrementAndGet();
          throw failure(errno);
        });
  }

  @Test
  void anyOtherFailureIsThrownAtOnce() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> alwaysFailing(Errno.EACCES, calls))
        .isInstanceOf(PosixException.class)
        .hasMessageContaining("EACCES");
    assertThat(calls).hasValue(1);
    assertThat(pauses).isEmpty();
  }

  @Test
  void aPathThatStaysMissingFailsAfterTheLastAttemptWithItsOwnErrorAndBoundedPauses() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> alwaysFailing(Errno.ENOENT, calls))
        .isInstanceOf(PosixException.class)
        .hasMessageContaining("/root/d/.lockstep")
        .hasMessageContaining("ENOENT");
    assertThat(calls).hasValue(SharedNamespaceRetry.ATTEMPTS);
    assertThat(pauses)
        .hasSize(SharedNamespaceRetry.ATTEMPTS - 1)
        .allMatch(p -> p <= SharedNamespaceRetry.MAX_PAUSE_NANOS);
    assertThat(pauses.stream().mapToLong(Long::longValue).sum())
        .as("total pause")
        .isLessThan(1_000_000_000L);
  }
}
