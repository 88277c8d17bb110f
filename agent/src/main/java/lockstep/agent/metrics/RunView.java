package lockstep.agent.metrics;

import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.RunState;

/**
 * What a scrape shows of one run the agent holds, read at scrape time from what the agent keeps
 * anyway (the counters its progress samples read, the last resource sample its telemetry thread
 * took).
 *
 * @param workload the workload type as scenarios write it ({@code write}, {@code lock-files})
 * @param latestSample the newest resource sample of the run, or null (none yet, or telemetry off)
 * @param telemetryOn whether the run takes resource samples ({@code telemetry: true})
 */
public record RunView(
    String runId,
    String workload,
    RunState state,
    long ops,
    long bytes,
    ResourceSample latestSample,
    boolean telemetryOn) {

  /** Armed or running: its measured threads are (about to be) at work. */
  public boolean active() {
    return state == RunState.RUN_STATE_ARMED || state == RunState.RUN_STATE_RUNNING;
  }
}
