package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WorkerStartGuardTest {
  @Test
  void workersThatCouldNotAllStartBeforeThePrepareDeadlineAreRefused() {
    assertThatThrownBy(
            () ->
                WorkerStartGuard.check(
                    100, "workload.processes", 2_000_000_000L, 60_000_000_000L, 2))
        .isInstanceOf(ResourceLimitException.class)
        .hasMessage(
            "workload.processes: 100 worker processes x 2.00 s to start one (measured on this"
                + " agent) / 2 CPUs = 100 s, more than the 60 s left of the prepare call's"
                + " deadline; lower workload.processes (the coordinator gives prepare 3 min)");
    assertThatCode(
            () ->
                WorkerStartGuard.check(
                    50, "workload.processes", 2_000_000_000L, 60_000_000_000L, 2))
        .doesNotThrowAnyException();
  }

  @Test
  void theFastestStartMeasuredIsTheOneKept() {
    // a cold first start after a boot, then warm ones: the guard keeps the fastest
    WorkerStartGuard.record(101_880_000_000L);
    WorkerStartGuard.record(12_000_000_000L);
    WorkerStartGuard.record(30_000_000_000L);
    assertThat(WorkerStartGuard.measured()).isLessThanOrEqualTo(12_000_000_000L);
  }
}
