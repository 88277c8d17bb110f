package lockstep.agent.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunSpanTest {
  @Test
  void theEarliestStartAndFirstOpAndTheLatestEndOfThePartsThatMadeOne() {
    RunSpan span = new RunSpan();
    span.add(20, 30, 90);
    span.add(10, 40, 80);
    span.add(5, 0, 999); // started, made no operation: its end does not count

    assertThat(span.started()).hasValue(5);
    assertThat(span.firstOp()).hasValue(30);
    assertThat(span.end()).isEqualTo(90);
  }

  @Test
  void partsThatDidNotStartLeaveItEmpty() {
    RunSpan span = new RunSpan();
    span.add(0, 0, 0);

    assertThat(span.started()).isEmpty();
    assertThat(span.firstOp()).isEmpty();
  }
}
