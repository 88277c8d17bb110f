package lockstep.agent.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ThreadsTest {

  @Test
  void runsEveryIndexOnce() {
    AtomicInteger sum = new AtomicInteger();
    assertThat(Threads.runAll(4, "t", sum::addAndGet, () -> {})).isTrue();
    assertThat(sum.get()).isEqualTo(0 + 1 + 2 + 3);
  }

  @Test
  @Timeout(10)
  void aThreadThatThrowsStopsTheOthersAndFailsTheFanOutNamingIt() {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger stoppedEarly = new AtomicInteger();
    assertThatThrownBy(
            () ->
                Threads.runAll(
                    3,
                    "io",
                    i -> {
                      if (i == 1) {
                        throw new ArrayIndexOutOfBoundsException(
                            "value outside the histogram's range");
                      }
                      // the others would run forever unless told to stop
                      while (!stop.get()) {
                        Thread.onSpinWait();
                      }
                      stoppedEarly.incrementAndGet();
                    },
                    () -> stop.set(true)))
        .isInstanceOf(Threads.ThreadFailedException.class)
        .hasMessageContaining("thread io-1 failed")
        .hasMessageContaining("ArrayIndexOutOfBoundsException")
        .hasMessageContaining("value outside the histogram's range")
        // what the node's error shows: the sentence, without the exception's class name in front
        .satisfies(e -> assertThat(e.toString()).isEqualTo(e.getMessage()));
    assertThat(stoppedEarly.get()).isEqualTo(2);
  }

  @Test
  void everyFailureIsKeptNotOnlyTheFirst() {
    assertThatThrownBy(
            () ->
                Threads.runAll(
                    3,
                    "m",
                    i -> {
                      throw new IllegalStateException("boom " + i);
                    },
                    () -> {}))
        .isInstanceOf(Threads.ThreadFailedException.class)
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(2));
  }

  @Test
  void aSingleThreadRunsOnTheCallerAndItsFailurePropagates() {
    String caller = Thread.currentThread().getName();
    AtomicInteger ranOnCaller = new AtomicInteger();
    Threads.runAll(
        1,
        "one",
        i -> {
          if (Thread.currentThread().getName().equals(caller)) {
            ranOnCaller.incrementAndGet();
          }
        },
        () -> {});
    assertThat(ranOnCaller.get()).isEqualTo(1);
    assertThatThrownBy(
            () ->
                Threads.runAll(
                    1,
                    "one",
                    i -> {
                      throw new IllegalStateException("direct");
                    },
                    () -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("direct");
  }
}
